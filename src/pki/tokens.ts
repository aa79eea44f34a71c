// Random tokens of the secrets bundle: `abcdef.0123456789abcdef` bootstrap/trustd tokens and base64 secrets.
// Unbiased like upstream's genToken: bytes ≥ 252 are redrawn so all 36 characters are equally likely.
import { randomBytes } from 'node:crypto';

const TOKEN_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';

function randomTokenString(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 252 && out.length < length) out += TOKEN_CHARS[b % TOKEN_CHARS.length];
    }
  }
  return out;
}

/** newToken returns `<first>.<second>` random characters; 6 and 16 as kubeadm and trustd tokens use. */
export const newToken = (first = 6, second = 16): string =>
  `${randomTokenString(first)}.${randomTokenString(second)}`;

/** newSecret returns `bytes` random bytes as standard base64 (secretbox key, cluster secret). */
export const newSecret = (bytes = 32): string => randomBytes(bytes).toString('base64');
