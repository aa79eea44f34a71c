// MachineService.Dmesg: kernel log records, one common.Data per record, formatted as upstream:
// "<facility>: <priority padded to 7>: [<RFC 3339 time with ns>]: <message>\n".

import { bootTimeNs, readKmsgStream } from '../../sys/fs/kmsg-stream.js';
import type { KmsgRecord } from '../../sys/kmsg.js';
import { type Handler, serverStreamHandler } from '../handlers.js';
import type { SystemInfoDeps } from './deps.js';
import { mapped } from './errors.js';

/** Facility names by number, in the order upstream's kmsg library has them. */
const FACILITIES = [
  'kern',
  'user',
  'mail',
  'daemon',
  'auth',
  'syslog',
  'lpr',
  'news',
  'uucp',
  'cron',
  'authpriv',
  'local0',
  'local1',
  'local2',
  'local3',
  'local4',
  'local5',
  'local6',
  'local7',
];
const PRIORITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

/** rfc3339Nano formats ns since the epoch in UTC as Go's time.RFC3339Nano: trailing zeros of the fraction dropped. */
export function rfc3339Nano(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString().slice(0, 19);
  const frac = (((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n)
    .toString()
    .padStart(9, '0')
    .replace(/0+$/, '');
  return `${iso}${frac ? `.${frac}` : ''}Z`;
}

/**
 * kmsgEscaped puts back the kernel's \xNN escaping (control bytes, bytes ≥ 0x7f, backslash), which the
 * record parser undoes: upstream sends the text as the kernel wrote it, and one record stays one line.
 */
export const kmsgEscaped = (message: string): string =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the bytes the kernel escapes
  message.replace(/[\x00-\x1f\x7f-\xff\\]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** dmesgLine formats one record; `bootNs` is the wall-clock time of boot. */
export function dmesgLine(r: KmsgRecord, bootNs: bigint): string {
  const facility = FACILITIES[r.facility] ?? String(r.facility);
  const priority = (PRIORITIES[r.level] ?? String(r.level)).padStart(7);
  return `${facility}: ${priority}: [${rfc3339Nano(bootNs + r.timestampUs * 1000n)}]: ${kmsgEscaped(r.message)}\n`;
}

export function dmesgHandler(deps: SystemInfoDeps = {}): Handler {
  return serverStreamHandler(async (req, send, ctx) => {
    const boot = bootTimeNs();
    await mapped('Dmesg', async () => {
      const items = readKmsgStream({
        follow: req.follow === true,
        tail: req.tail === true,
        signal: ctx.signal,
        ...(deps.kmsgPath ? { path: deps.kmsgPath } : {}),
        ...(deps.dmesgPollMs ? { pollMs: deps.dmesgPollMs } : {}),
      });
      for await (const item of items) {
        if (item.type === 'record') await send({ bytes: Buffer.from(dmesgLine(item.record, boot)) });
        else
          await send({
            metadata: { error: `malformed kmsg record: ${JSON.stringify(item.raw.slice(0, 200))}` },
          });
      }
    });
  });
}
