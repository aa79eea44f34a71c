// Config bytes to text: a machine config is UTF-8 YAML, so bytes that are not (a binary file, a file in
// another encoding) are refused up front with where they go wrong, instead of being fed to the YAML
// parser as replacement characters, where they made pages of meaningless errors.
import { ConfigError, ConfigErrors } from '../errors.js';
import { MAX_CONFIG_BYTES, tooLarge } from './limits.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * firstControl is the offset of the first C0 control or DEL but tab, newline and carriage return, which
 * YAML allows nowhere in a stream; in UTF-8 those bytes stand only for themselves
 */
function firstControl(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) return i;
  }
  return -1;
}

const hex = (b: number) => `0x${b.toString(16).padStart(2, '0')}`;

/** lineOfOffset is the 1-based line of a byte offset: the newlines before it, plus one */
function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** firstInvalidUtf8 is the offset where the first ill-formed UTF-8 sequence starts (RFC 3629) */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    // the length of the sequence b starts, and the range its second byte must fall in
    let n = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b < 0x80) n = 1;
    else if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      if (b === 0xe0) lo = 0xa0; // no overlong forms
      if (b === 0xed) hi = 0x9f; // no surrogates
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f; // nothing past U+10FFFF
    } else return i;
    for (let k = 1; k < n; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n;
  }
  return i;
}

/**
 * configText decodes a config stream's bytes, or throws ConfigErrors saying what the bytes are instead:
 * too many, binary (a control character YAML does not allow) or not UTF-8. `what` names the input.
 */
export function configText(bytes: Uint8Array, what = 'the configuration'): string {
  const fail = (detail: string, line?: number): never => {
    throw new ConfigErrors([new ConfigError('not-text', what, '', line, detail)]);
  };
  if (bytes.length > MAX_CONFIG_BYTES) fail(tooLarge(bytes.length));
  const control = firstControl(bytes);
  if (control >= 0)
    fail(
      `is binary, not YAML: control character ${hex(bytes[control]!)} at offset ${control}`,
      lineOfOffset(bytes, control),
    );
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    return fail(
      `is not UTF-8 text: byte ${hex(bytes[at] ?? 0)} at offset ${at} starts no valid character`,
      lineOfOffset(bytes, at),
    );
  }
  // the decoder drops a leading byte order mark, which YAML allows
  return text;
}
