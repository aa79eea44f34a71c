import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decode } from '../../src/config/decoder/index.js';
import { encode } from '../../src/config/encoder.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.txt`, import.meta.url), 'utf8');

describe('round trip of talosctl-generated configs', () => {
  for (const name of ['controlplane.yaml', 'worker.yaml']) {
    it(`re-encodes ${name} byte for byte`, () => {
      const src = fixture(name);
      expect(encode(decode(src))).toBe(src);
    });
  }
});

describe('round trip of a config using most upstream fields', () => {
  it('keeps fields Keel does not act on, in talosctl order', () => {
    const src = fixture('kitchen-sink.yaml');
    expect(encode(decode(src))).toBe(src);
  });

  it('ignores comments, as talosctl --with-docs writes them', () => {
    const src = fixture('controlplane.yaml');
    const commented = src
      .replace(
        'version: v1alpha1\n',
        'version: v1alpha1 # Indicates the schema used to decode the contents.\n',
      )
      .replace('machine:\n', '# Provides machine specific configuration options.\nmachine:\n')
      .replace(
        '    certSANs: []\n',
        '    certSANs: []\n    # # Provides machine specific control plane configuration options.\n    # controlPlane:\n    #     scheduler:\n    #         disabled: true\n',
      );
    expect(encode(decode(commented))).toBe(src);
  });
});
