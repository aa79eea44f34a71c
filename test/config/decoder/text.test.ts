// Config bytes to text: UTF-8 YAML is taken as it is; anything else is named with where it goes wrong.
import { describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../../src/config/decoder/limits.js';
import { configText } from '../../../src/config/decoder/text.js';
import { ConfigErrors } from '../../../src/config/errors.js';

/** refusal is the one error configText throws for `bytes`, rendered */
function refusal(bytes: Uint8Array): string {
  try {
    configText(bytes, 'cfg.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigErrors);
    const { errors } = e as ConfigErrors;
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe('not-text');
    return errors[0]!.message;
  }
  throw new Error('configText took the bytes');
}

const b = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('configText', () => {
  it('takes UTF-8 YAML as it is, tabs, CRLF and all, and drops a leading byte order mark', () => {
    const yaml = 'machine:\r\n  type: worker # a comment, ünïcödé, 日本, 🚀\n\tx: y\n';
    expect(configText(Buffer.from(yaml))).toBe(yaml);
    expect(configText(b([0xef, 0xbb, 0xbf], yaml))).toBe(yaml);
    expect(configText(new Uint8Array(0))).toBe('');
  });

  it('names a binary file by its first control character, with offset and line', () => {
    expect(refusal(b('a: 1\nb: 2\x00'))).toBe(
      'cfg.yaml (line 2): is binary, not YAML: control character 0x00 at offset 9',
    );
    expect(refusal(b('\x7fELF'))).toBe(
      'cfg.yaml (line 1): is binary, not YAML: control character 0x7f at offset 0',
    );
    expect(refusal(b('x: \x1b[31m'))).toContain('control character 0x1b at offset 3');
  });

  it('names the first ill-formed UTF-8 sequence where it starts', () => {
    const cases: [number[], number][] = [
      [[0xe9], 0xe9], // Latin-1 é
      [[0xc0, 0xaf], 0xc0], // an overlong '/'
      [[0xe0, 0x80, 0xaf], 0xe0], // overlong in three bytes
      [[0xed, 0xa0, 0x80], 0xed], // a surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0xf4], // past U+10FFFF
      [[0xe2, 0x82], 0xe2], // cut short at the end
      [[0xe2, 0x41, 0x41], 0xe2], // cut short inside
      [[0x80], 0x80], // a continuation byte alone
    ];
    for (const [seq, first] of cases)
      expect(refusal(b('ok: é\nx: ', seq, '\n')), seq.join(' ')).toBe(
        `cfg.yaml (line 2): is not UTF-8 text: byte 0x${first.toString(16)} at offset 10 starts no valid character`,
      );
  });

  it(`refuses more than ${MAX_CONFIG_BYTES} bytes before looking at them`, () => {
    expect(refusal(Buffer.alloc(MAX_CONFIG_BYTES + 1))).toBe(
      `cfg.yaml: is ${MAX_CONFIG_BYTES + 1} bytes, over the limit of ${MAX_CONFIG_BYTES} bytes (4 MiB)`,
    );
    expect(configText(Buffer.alloc(MAX_CONFIG_BYTES, 0x20))).toHaveLength(MAX_CONFIG_BYTES);
  });
});
