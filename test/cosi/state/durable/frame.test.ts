import { describe, expect, it } from 'vitest';
import { crc32, crc32Table } from '../../../../src/cosi/state/durable/crc32.js';
import { DurableStoreError } from '../../../../src/cosi/state/durable/errors.js';
import { encodeFrame, HEADER_SIZE, scanFrames } from '../../../../src/cosi/state/durable/frame.js';

const rec = (s: string) => Buffer.from(s, 'utf8');
const text = (records: readonly Uint8Array[]) => records.map((r) => Buffer.from(r).toString('utf8'));

/** three frames after an 8-byte preamble, as in a log */
const sample = () => {
  const frames = [
    encodeFrame([rec('a1'), rec('a2')]),
    encodeFrame([rec('b')]),
    encodeFrame([rec('c1'), rec('c2')]),
  ];
  return { buf: Buffer.concat([Buffer.alloc(8, 0x41), ...frames]), frames };
};

const corruptAt = (fn: () => unknown): DurableStoreError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof DurableStoreError && e.code === 'corrupt') return e;
    throw e;
  }
  throw new Error('expected a corrupt error');
};

describe('crc32', () => {
  it('matches the IEEE check value, natively and by table', () => {
    const check = rec('123456789');
    expect(crc32(check)).toBe(0xcbf43926);
    expect(crc32Table(check)).toBe(0xcbf43926);
    const big = Buffer.alloc(70_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
    expect(crc32Table(big)).toBe(crc32(big));
    expect(crc32(new Uint8Array())).toBe(0);
  });
});

describe('frames', () => {
  it('reads back every record of every frame in order', () => {
    const { buf, frames } = sample();
    const scan = scanFrames(buf, 8, 'log', 'sealed');
    expect(scan.frames.map((f) => text(f.records))).toEqual([['a1', 'a2'], ['b'], ['c1', 'c2']]);
    expect(scan.frames.map((f) => f.offset)).toEqual([
      8,
      8 + frames[0]!.length,
      8 + frames[0]!.length + frames[1]!.length,
    ]);
    expect(scan.end).toBe(buf.length);
    expect(scan.torn).toBeUndefined();
  });

  it('drops an unfinished last frame at every possible cut, and only that frame', () => {
    const { buf, frames } = sample();
    const lastStart = buf.length - frames[2]!.length;
    for (let cut = lastStart + 1; cut < buf.length; cut++) {
      const scan = scanFrames(buf.subarray(0, cut), 8, 'log', 'active');
      expect(
        scan.frames.map((f) => text(f.records)),
        `cut at ${cut}`,
      ).toEqual([['a1', 'a2'], ['b']]);
      expect(scan.end).toBe(lastStart);
      expect(scan.torn).toMatchObject({ offset: lastStart, bytes: cut - lastStart });
    }
  });

  it('treats a bad checksum in the last frame as torn, and zeros after the last frame as torn', () => {
    const { buf, frames } = sample();
    const lastStart = buf.length - frames[2]!.length;
    const flipped = Buffer.from(buf);
    flipped[buf.length - 1]! ^= 0x01;
    expect(scanFrames(flipped, 8, 'log', 'active').torn).toMatchObject({
      offset: lastStart,
      reason: 'last frame checksum mismatch',
    });
    const zeros = Buffer.concat([buf, Buffer.alloc(4096)]);
    expect(scanFrames(zeros, 8, 'log', 'active')).toMatchObject({
      end: buf.length,
      torn: { offset: buf.length, bytes: 4096, reason: 'zero-filled tail' },
    });
  });

  it('reports damage before the last frame with the file and the frame offset', () => {
    const { buf, frames } = sample();
    const second = 8 + frames[0]!.length;
    const payloadFlip = Buffer.from(buf);
    payloadFlip[second + HEADER_SIZE + 2]! ^= 0x40;
    const e1 = corruptAt(() => scanFrames(payloadFlip, 8, '/x/log.0000000003', 'active'));
    expect(e1).toMatchObject({ file: '/x/log.0000000003', offset: second });
    expect(e1.message).toBe(
      `corrupt durable store file /x/log.0000000003 at offset ${second}: bad frame checksum`,
    );

    // A damaged length must not pass for a frame that runs past the end (which would look torn).
    const lengthFlip = Buffer.from(buf);
    lengthFlip[second + 1]! ^= 0x10;
    expect(corruptAt(() => scanFrames(lengthFlip, 8, 'log', 'active'))).toMatchObject({
      offset: second,
      message: expect.stringContaining('bad frame header checksum'),
    });
  });

  it('allows no torn tail in a sealed file', () => {
    const { buf } = sample();
    expect(corruptAt(() => scanFrames(buf.subarray(0, buf.length - 3), 8, 'snap', 'sealed')).offset).toBe(
      buf.length - sample().frames[2]!.length,
    );
    expect(
      corruptAt(() => scanFrames(Buffer.concat([buf, Buffer.alloc(5)]), 8, 'snap', 'sealed')).offset,
    ).toBe(buf.length);
  });

  it('rejects a well-checksummed frame whose records do not fit it', () => {
    const payload = Buffer.alloc(6);
    payload.writeUInt32LE(100, 0);
    const good = encodeFrame([payload]);
    // Rewrite the frame so its payload is just the malformed inner record, with valid checksums.
    const inner = good.subarray(HEADER_SIZE + 4);
    const frame = Buffer.alloc(HEADER_SIZE + inner.length);
    inner.copy(frame, HEADER_SIZE);
    frame.writeUInt32LE(inner.length, 0);
    frame.writeUInt32LE(crc32(inner), 4);
    frame.writeUInt32LE(crc32(frame.subarray(0, 8)), 8);
    expect(corruptAt(() => scanFrames(frame, 0, 'log', 'active')).message).toMatch(/record length 100/);
  });
});
