// RawVolumeConfig: accepted beside a generated worker config; each broken field is named in the error.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decode } from '../../../../src/config/decoder/index.js';
import { validate } from '../../../../src/config/validate/index.js';

const worker = readFileSync(new URL('../../fixtures/worker.yaml.txt', import.meta.url), 'utf8');
const problems = (doc: string) =>
  validate(decode(`${worker}---\napiVersion: v1alpha1\nkind: RawVolumeConfig\n${doc}`), {
    mode: 'metal',
  }).errors.map((e) => `${e.path}: ${e.detail}`);

describe('RawVolumeConfig', () => {
  it('accepts a named partition with a disk selector and a size', () => {
    const ok = ['name: Ceph-osd-0', 'provisioning:', '    diskSelector:', "        match: '!system_disk'"];
    expect(problems([...ok, '    minSize: 10GiB', ''].join('\n'))).toEqual([]);
    expect(problems([...ok, '    maxSize: 50%', '    grow: true', ''].join('\n'))).toEqual([]);
  });

  it('names the field of each mistake', () => {
    expect(problems('name: osd\n')).toEqual([
      'provisioning.diskSelector.match: disk selector is required',
      'provisioning.minSize: min size or max size is required',
    ]);
    expect(
      problems(
        'name: osd\nprovisioning:\n    diskSelector:\n        match: " "\n    minSize: 2GiB\n    maxSize: 1GiB\n',
      ),
    ).toEqual([
      'provisioning.minSize: minSize is greater than maxSize',
      'provisioning.diskSelector.match: disk selector expression must not be empty',
    ]);
    expect(
      problems(
        "name: osd\nprovisioning:\n    diskSelector:\n        match: 'true'\n    minSize: 1GiB\nencryption:\n    provider: luks2\n",
      ),
    ).toEqual(['encryption.keys: no encryption keys provided']);
  });

  it('keeps upstream name rules: 1-34 letters, digits and hyphens', () => {
    const named = (n: string) =>
      problems(`name: ${n}\nprovisioning:\n    diskSelector:\n        match: 'true'\n    minSize: 1GiB\n`);
    expect(named('a'.repeat(34))).toEqual([]);
    expect(named('a'.repeat(35))).toEqual(['name: name must be between 1 and 34 characters long']);
    expect(named('"a.b"')).toEqual([
      'name: name can only contain lowercase and uppercase ASCII letters, digits, and hyphens',
    ]);
    expect(named('""')).toEqual(['name: name is required']);
  });
});
