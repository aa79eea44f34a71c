import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openKmsgWriter, parseKmsgRecord, readKmsg } from '../../src/sys/kmsg.js';

describe('/dev/kmsg', () => {
  it('parses a record with its continuation lines and escapes', () => {
    expect(parseKmsgRecord('14,1234,5678901,-;machined: hello\\x20world\n SUBSYSTEM=x\n')).toEqual({
      facility: 1,
      level: 6,
      seq: 1234n,
      timestampUs: 5678901n,
      flags: '-',
      message: 'machined: hello world',
    });
    expect(parseKmsgRecord('garbage')).toBeUndefined();
  });

  it('writes a record and reads it back from the ring', () => {
    if (process.getuid?.() !== 0) throw new Error('writing /dev/kmsg needs root');
    const marker = `keel-test ${randomUUID()}`;
    const w = openKmsgWriter();
    try {
      w.write('notice', marker);
    } finally {
      w.close();
    }
    const hit = readKmsg().find((r) => r.message === marker);
    expect(hit).toMatchObject({ facility: 1, level: 5 });
  });
});
