// /dev/kmsg: write records into the kernel log and read the ring back as parsed records.
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import { isSysErrorLike } from './internal/fs-error.js';

/** Syslog priorities (the low three bits of a record's prefix). */
export const KMSG_LEVEL = {
  emerg: 0,
  alert: 1,
  crit: 2,
  err: 3,
  warning: 4,
  notice: 5,
  info: 6,
  debug: 7,
} as const;
export type KmsgLevel = keyof typeof KMSG_LEVEL;

/** LOG_USER: the facility of records written from user space (the kernel's own are facility 0). */
const FACILITY_USER = 1;

export interface KmsgRecord {
  facility: number;
  level: number;
  seq: bigint;
  /** microseconds since boot (CLOCK_MONOTONIC) */
  timestampUs: bigint;
  /** 'c' marks a continued record */
  flags: string;
  message: string;
}

/** parseKmsgRecord parses one read(2) of /dev/kmsg: "pri,seq,usec,flags[,…];message\n[ KEY=value…]". */
export function parseKmsgRecord(text: string): KmsgRecord | undefined {
  const semi = text.indexOf(';');
  if (semi < 0) return undefined;
  const [pri, seq, ts, flags] = text.slice(0, semi).split(',');
  if (pri === undefined || seq === undefined || ts === undefined) return undefined;
  const body = text.slice(semi + 1);
  const end = body.indexOf('\n');
  const p = Number(pri);
  return {
    facility: p >> 3,
    level: p & 7,
    seq: BigInt(seq),
    timestampUs: BigInt(ts),
    flags: flags ?? '-',
    // the kernel escapes non-printable bytes as \xNN
    message: (end < 0 ? body : body.slice(0, end)).replace(/\\x([0-9a-f]{2})/g, (_, h: string) =>
      String.fromCharCode(parseInt(h, 16)),
    ),
  };
}

/** KmsgWriter writes one kernel-log record per call; the kernel keeps each write as one record. */
export interface KmsgWriter {
  write(level: KmsgLevel, message: string): void;
  close(): void;
}

export function openKmsgWriter(path = '/dev/kmsg'): KmsgWriter {
  const fd = openSync(path, constants.O_WRONLY);
  return {
    write(level, message) {
      // a record is capped at ~1 KiB by the kernel; longer text is split rather than truncated
      for (let i = 0; i < Math.max(1, message.length); i += 900) {
        const pri = (FACILITY_USER << 3) | KMSG_LEVEL[level];
        writeSync(fd, `<${pri}>${message.slice(i, i + 900)}\n`);
      }
    },
    close: () => closeSync(fd),
  };
}

/**
 * readKmsg returns the records currently in the ring (from the oldest kept), without waiting for more.
 * Overwritten records (EPIPE) are skipped.
 */
export function readKmsg(path = '/dev/kmsg'): KmsgRecord[] {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const buf = Buffer.alloc(8192);
  const out: KmsgRecord[] = [];
  try {
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        if (isSysErrorLike(e, 'EAGAIN')) break;
        if (isSysErrorLike(e, 'EPIPE')) continue;
        throw e;
      }
      if (n === 0) break;
      const r = parseKmsgRecord(buf.toString('utf8', 0, n));
      if (r) out.push(r);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}
