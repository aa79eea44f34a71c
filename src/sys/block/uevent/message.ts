// The kernel's uevent datagram, the pure part: "ACTION@DEVPATH\0KEY=VALUE\0…" (lib/kobject_uevent.c)
// into a typed Uevent. udevd's own messages, which start with "libudev\0" and a binary header, are
// not the kernel's: Keel listens to the kernel's group only, and skips them if any arrive.
import { UeventError } from './errors.js';

/** The kobject actions (include/linux/kobject.h, kobject_actions[]). */
export const UEVENT_ACTIONS = [
  'add',
  'remove',
  'change',
  'move',
  'online',
  'offline',
  'bind',
  'unbind',
] as const;
export type UeventAction = (typeof UEVENT_ACTIONS)[number];

export interface Uevent {
  readonly action: UeventAction;
  /** the kobject's path under /sys: `/devices/virtual/block/loop0/loop0p1` */
  readonly devpath: string;
  readonly subsystem: string;
  /** the /dev node's name, relative to /dev (block and char devices only) */
  readonly devname: string | undefined;
  /** `disk` or `partition` for block devices */
  readonly devtype: string | undefined;
  readonly major: number | undefined;
  readonly minor: number | undefined;
  /** the kernel's event counter; exact as a number for far longer than a node runs */
  readonly seqnum: number;
  /** every KEY=VALUE of the event, those above included */
  readonly env: Readonly<Record<string, string>>;
}

/** The prefix of a udevd monitor message (a header and properties udevd has added). */
export const LIBUDEV_MAGIC = Buffer.from('libudev\0', 'latin1');

const ACTIONS: ReadonlySet<string> = new Set(UEVENT_ACTIONS);

/** isLibudevMessage tells udevd's re-broadcast apart from the kernel's datagram. */
export const isLibudevMessage = (data: Uint8Array): boolean =>
  data.length >= LIBUDEV_MAGIC.length && LIBUDEV_MAGIC.equals(data.subarray(0, LIBUDEV_MAGIC.length));

const previewOf = (data: Uint8Array) =>
  Buffer.from(data.subarray(0, 80)).toString('latin1').replaceAll('\0', '\\0');

function decimal(data: Uint8Array, key: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new UeventError('malformed', `${key} is not a number: ${value}`, previewOf(data));
  return Number(value);
}

/**
 * parseUevent reads one kernel datagram; udevd's messages give undefined. The header must agree with
 * the ACTION and DEVPATH it is made of, and SUBSYSTEM and SEQNUM must be there, as the kernel always
 * writes them; anything else throws a UeventError naming what is wrong.
 */
export function parseUevent(data: Uint8Array): Uevent | undefined {
  if (isLibudevMessage(data)) return undefined;
  const bad = (why: string) => new UeventError('malformed', why, previewOf(data));
  const fields = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8').split('\0');
  const header = fields[0] ?? '';
  const at = header.indexOf('@');
  if (at <= 0) throw bad('no ACTION@DEVPATH header');
  const env: Record<string, string> = {};
  for (const field of fields.slice(1)) {
    if (field === '') continue; // the datagram ends with a NUL
    const eq = field.indexOf('=');
    if (eq <= 0) throw bad(`not KEY=VALUE: ${field}`);
    env[field.slice(0, eq)] = field.slice(eq + 1);
  }
  const action = header.slice(0, at);
  const devpath = header.slice(at + 1);
  if (!ACTIONS.has(action)) throw bad(`unknown action ${action}`);
  if (env.ACTION !== action) throw bad(`ACTION=${env.ACTION ?? ''} disagrees with the header's ${action}`);
  if (env.DEVPATH !== devpath)
    throw bad(`DEVPATH=${env.DEVPATH ?? ''} disagrees with the header's ${devpath}`);
  if (!env.SUBSYSTEM) throw bad('no SUBSYSTEM');
  const seqnum = decimal(data, 'SEQNUM', env.SEQNUM);
  if (seqnum === undefined) throw bad('no SEQNUM');
  return {
    action: action as UeventAction,
    devpath,
    subsystem: env.SUBSYSTEM,
    devname: env.DEVNAME,
    devtype: env.DEVTYPE,
    major: decimal(data, 'MAJOR', env.MAJOR),
    minor: decimal(data, 'MINOR', env.MINOR),
    seqnum,
    env,
  };
}

/** isBlockUevent keeps the events of block devices (disks and partitions). */
export const isBlockUevent = (u: Uevent): boolean => u.subsystem === 'block';

/** kernelName is the device's name in sysfs, the last part of its devpath: what readBlockDevice takes. */
export const kernelName = (u: Pick<Uevent, 'devpath'>): string =>
  u.devpath.slice(u.devpath.lastIndexOf('/') + 1);
