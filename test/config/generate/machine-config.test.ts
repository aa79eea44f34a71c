import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { accessors } from '../../../src/config/accessors.js';
import { decode } from '../../../src/config/decoder/index.js';
import { encode } from '../../../src/config/encoder.js';
import { ConfigErrors } from '../../../src/config/errors.js';
import { decodeSecretsBundle } from '../../../src/config/generate/bundle.js';
import { generateConfigs } from '../../../src/config/generate/machine-config.js';
import { validate } from '../../../src/config/validate/index.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}.txt`, import.meta.url), 'utf8');
const secrets = decodeSecretsBundle(fixture('secrets.yaml'));

describe('generateConfigs', () => {
  const out = generateConfigs({ clusterName: 'demo', endpoint: 'https://10.5.0.2:6443', secrets });

  it('writes controlplane.yaml exactly as talosctl v1.13 does', () => {
    expect(encode(out.controlplane)).toBe(fixture('controlplane.yaml'));
  });

  it('writes worker.yaml exactly as talosctl v1.13 does', () => {
    expect(encode(out.worker)).toBe(fixture('worker.yaml'));
  });

  it('produces configs that decode, validate in every mode and re-encode without loss', () => {
    for (const cfg of [out.controlplane, out.worker]) {
      const text = encode(cfg);
      const back = decode(text);
      expect(encode(back)).toBe(text);
      for (const mode of ['metal', 'cloud', 'container'] as const) {
        expect(validate(back, { mode }).errors.map((e) => e.message)).toEqual([]);
      }
    }
  });

  it('keeps CA keys off workers and the roles right', () => {
    const w = accessors(out.worker);
    expect(w.machineType()).toBe('worker');
    expect(w.osCA()!.key).toBe('');
    expect(w.cluster().etcd).toBeUndefined();
    expect(accessors(out.controlplane).machineType()).toBe('controlplane');
    expect(accessors(out.controlplane).hostname()).toEqual({ auto: 'stable' });
  });

  it('applies versions, disk and SANs', () => {
    const g = generateConfigs({
      clusterName: 'c1',
      endpoint: 'https://api.example.org:6443',
      secrets,
      kubernetesVersion: 'v1.35.0',
      installDisk: '/dev/nvme0n1',
      additionalSANs: ['10.0.0.10', 'api.example.org'],
    });
    const a = accessors(g.controlplane);
    expect(a.kubelet().image).toBe('ghcr.io/siderolabs/kubelet:v1.35.0');
    expect(a.install()!.disk).toBe('/dev/nvme0n1');
    expect(a.certSANs()).toEqual(['10.0.0.10', 'api.example.org']);
    expect(a.cluster().apiServer!.certSANs).toEqual(['api.example.org', '10.0.0.10']);
  });

  it('rejects an endpoint that is not an https URL', () => {
    expect(() => generateConfigs({ clusterName: 'c', endpoint: '10.0.0.1:6443', secrets })).toThrow(
      ConfigErrors,
    );
  });
});
