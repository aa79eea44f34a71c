import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ConfigErrors } from '../../../src/config/errors.js';
import {
  decodeSecretsBundle,
  encodeSecretsBundle,
  talosEd25519Label,
} from '../../../src/config/generate/bundle.js';
import {
  decodeTalosconfig,
  encodeTalosconfig,
  newTalosconfig,
} from '../../../src/config/generate/talosconfig.js';
import { pemLabel } from '../../../src/config/validate/formats.js';

const text = readFileSync(new URL('../fixtures/secrets.yaml.txt', import.meta.url), 'utf8');
const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('secrets bundle', () => {
  it('round-trips the talosctl layout byte for byte', () => {
    expect(encodeSecretsBundle(decodeSecretsBundle(text))).toBe(text);
  });

  it("accepts the OS key under OpenSSL's PRIVATE KEY label and writes ED25519 PRIVATE KEY", () => {
    const pkcs8 = generateKeyPairSync('ed25519').privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    const relabelled = text.replace(/( {4}os:\n {8}crt: \S+\n {8}key: )\S+/, `$1${b64(pkcs8)}`);
    const bundle = decodeSecretsBundle(relabelled);
    expect(pemLabel(bundle.certs.os.key)).toBe('ED25519 PRIVATE KEY');
    expect(encodeSecretsBundle(bundle)).toContain(bundle.certs.os.key);
  });

  it('leaves non-Ed25519 PKCS#8 keys alone', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(talosEd25519Label(b64(String(ec)))).toBe(b64(String(ec)));
  });

  it('names missing and malformed fields with their lines', () => {
    const broken = text
      .replace(/bootstraptoken: \S+/, 'bootstraptoken: nope')
      .replace(/\n {4}k8sserviceaccount:\n {8}key: \S+/, '');
    try {
      decodeSecretsBundle(broken);
      expect.unreachable();
    } catch (e) {
      const msgs = (e as ConfigErrors).errors.map((x) => x.message);
      expect(msgs).toContain(
        'secrets secrets.bootstraptoken (line 5): invalid token: expected [a-z0-9]{6}.[a-z0-9]{16}',
      );
      expect(
        msgs.some((m) => m.startsWith('secrets certs.k8sserviceaccount.key') && m.endsWith('is required')),
      ).toBe(true);
    }
  });

  it('rejects unknown keys', () => {
    expect(() => decodeSecretsBundle(`${text}extra: 1\n`)).toThrow(/unknown field "extra"/);
  });
});

describe('talosconfig', () => {
  it('encodes in talosctl layout and decodes back', () => {
    const t = newTalosconfig({ clusterName: 'demo', osCACrt: 'Q0E=', admin: { crt: 'Q1JU', key: 'S0VZ' } });
    const out = encodeTalosconfig(t);
    expect(out).toBe(
      'context: demo\ncontexts:\n    demo:\n        endpoints: []\n        ca: Q0E=\n        crt: Q1JU\n        key: S0VZ\n',
    );
    expect(decodeTalosconfig(out)).toEqual(t);
  });
});
