import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { dmesgLine, kmsgEscaped, rfc3339Nano } from '../../../src/api/machine/index.js';
import { callStream } from '../fixtures.js';
import { type Msg, useServer } from './harness.js';

const h = useServer({ dmesgPollMs: 10 });
const LINE = /^[a-z0-9]+: {0,6}[a-z]+: \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z\]: .*\n$/;

// Writing a marker record needs root, as does reading /dev/kmsg where dmesg_restrict is set.
const mark = () => {
  const text = `keel-dmesg-test ${randomUUID()}`;
  writeFileSync('/dev/kmsg', `<13>${text}\n`);
  return text;
};
const lines = (msgs: Msg[]) => msgs.map((m) => Buffer.from(m.bytes as Buffer).toString());

describe('rfc3339Nano and dmesgLine', () => {
  it.each([
    [0n, '1970-01-01T00:00:00Z'],
    [1_700_000_000_123_456_789n, '2023-11-14T22:13:20.123456789Z'],
    [1_700_000_000_120_000_000n, '2023-11-14T22:13:20.12Z'],
  ])('%s ns → %s', (ns, want) => {
    expect(rfc3339Nano(ns)).toBe(want);
  });

  it('formats facility, padded priority, time and message as upstream', () => {
    const rec = { facility: 0, level: 6, seq: 1n, timestampUs: 1_500_000n, flags: '-', message: 'hello' };
    expect(dmesgLine(rec, 1_700_000_000_000_000_000n)).toBe(
      'kern:    info: [2023-11-14T22:13:21.5Z]: hello\n',
    );
    expect(dmesgLine({ ...rec, facility: 1, level: 4 }, 0n)).toBe(
      'user: warning: [1970-01-01T00:00:01.5Z]: hello\n',
    );
  });
});

describe('kmsgEscaped', () => {
  it.each([
    ['plain text', 'plain text'],
    ['tab\there', 'tab\\x09here'],
    ['two\nlines', 'two\\x0alines'],
    ['back\\slash', 'back\\x5cslash'],
    ['\u00e9', '\\xe9'],
  ])('%j → %j', (raw, want) => {
    expect(kmsgEscaped(raw)).toBe(want);
  });
});

describe('Dmesg over mTLS', () => {
  it('returns well-formed lines that dmesg also shows, including a fresh record', async () => {
    const text = mark();
    const got = lines(await callStream(h.client('machine.MachineService'), 'Dmesg', {}));
    for (const l of got) expect(l).toMatch(LINE);
    expect(got.some((l) => l.startsWith('user:  notice: ') && l.endsWith(`]: ${text}\n`))).toBe(true);
    const shown = execFileSync('dmesg', { encoding: 'utf8' });
    expect(shown).toContain(text);
    // the oldest kernel messages we return are the ones dmesg starts with
    const firstMsg = got[0]!.replace(/^.*?\]: /, '').trimEnd();
    expect(shown).toContain(firstMsg);
  });

  it('with tail and no follow, returns none of the records already there', async () => {
    const text = mark();
    const got = lines(await callStream(h.client('machine.MachineService'), 'Dmesg', { tail: true }));
    expect(got.some((l) => l.includes(text))).toBe(false);
  });

  it('follows until the client cancels', async () => {
    const text = mark();
    const client = h.client('machine.MachineService') as unknown as {
      Dmesg(req: object): {
        on(ev: string, fn: (x: never) => void): void;
        cancel(): void;
      };
    };
    // follow sends what is in the ring and then waits for more: read up to the marker and hang up
    const got = await new Promise<string[]>((resolve, reject) => {
      const seen: string[] = [];
      const call = client.Dmesg({ follow: true });
      call.on('data', (m: Msg) => {
        seen.push(Buffer.from(m.bytes as Buffer).toString());
        if (seen.at(-1)!.includes(text)) {
          call.cancel();
          resolve(seen);
        }
      });
      call.on('error', (err: { code: number }) => {
        if (err.code !== status.CANCELLED) reject(err);
      });
    });
    expect(got.at(-1)).toContain(text);
    for (const l of got) expect(l).toMatch(LINE);
  });
});
