import { randomUUID } from 'node:crypto';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LogRing } from '../../../src/machined/logging/ring.js';
import { kernelLogText, pumpKernelLog } from '../../../src/machined/node/kernel-log.js';

// Reading /dev/kmsg needs CAP_SYSLOG (or dmesg_restrict=0); writing it needs root.
const mark = () => {
  const text = `keel-kernel-log-test ${randomUUID()}`;
  writeFileSync('/dev/kmsg', `<14>${text}\n`);
  return text;
};

const kmsgOpen = () =>
  readdirSync('/proc/self/fd').some((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === '/dev/kmsg';
    } catch {
      return false;
    }
  });

/** until polls `cond` every 10 ms for up to 5 s */
async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await delay(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('pumpKernelLog', () => {
  it('copies the ring and then new records into the log ring, one dmesg line each, until aborted', async () => {
    const before = mark();
    const ring = new LogRing();
    const ac = new AbortController();
    const logged: string[] = [];
    const done = pumpKernelLog(ring, ac.signal, (l) => logged.push(l), { pollMs: 10 });
    const text = () => ring.slice().toString();
    await until(() => text().includes(before), 'the record written before the pump');
    const after = mark();
    await until(() => text().includes(after), 'the record written while following');
    ac.abort();
    await done;
    expect(logged).toEqual([]);
    expect(kmsgOpen()).toBe(false);
    const line = text()
      .split('\n')
      .find((l) => l.includes(after));
    // facility user, priority info, RFC 3339 time with ns: upstream's dmesg format
    expect(line).toMatch(
      /^user: {4}info: \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\]: keel-kernel-log-test /,
    );
    expect(text().endsWith('\n')).toBe(true);
  });

  it('logs, never throws, when the kernel log cannot be read', async () => {
    const logged: string[] = [];
    await pumpKernelLog(new LogRing(), new AbortController().signal, (l) => logged.push(l), {
      path: '/dev/no-such-kmsg',
    });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^kernel log: not collected: .*\/dev\/no-such-kmsg/);
  });
});

describe('kernelLogText', () => {
  it('renders records as dmesg lines and keeps a malformed record as one line of its text', () => {
    const text = kernelLogText(
      [
        {
          type: 'record',
          record: { facility: 0, level: 6, seq: 1n, timestampUs: 1_500_000n, flags: '-', message: 'a\tb' },
        },
        { type: 'malformed', raw: 'no semicolon here\n' },
      ],
      0n,
    );
    expect(text).toBe('kern:    info: [1970-01-01T00:00:01.5Z]: a\\x09b\nno semicolon here\n');
  });
});
