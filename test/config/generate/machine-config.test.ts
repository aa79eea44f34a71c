import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseComponents } from '../../../scripts/components/manifest.js';
import { accessors } from '../../../src/config/accessors.js';
import { v1alpha1Of } from '../../../src/config/container.js';
import { decode } from '../../../src/config/decoder/index.js';
import { encode } from '../../../src/config/encoder.js';
import { ConfigErrors } from '../../../src/config/errors.js';
import { decodeSecretsBundle } from '../../../src/config/generate/bundle.js';
import { generateConfigs } from '../../../src/config/generate/machine-config.js';
import { DEFAULT_KUBERNETES_VERSION } from '../../../src/config/generate/options.js';
import { validate } from '../../../src/config/validate/index.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const secrets = decodeSecretsBundle(read('../fixtures/secrets.yaml.txt'));
// talosctl v1.13.0 `gen config demo https://10.5.0.2:6443 --with-secrets <that bundle>
// --with-docs=false --with-examples=false --kubernetes-version=v1.34.4 [--talos-version v1.11]`, unedited:
// Keel's default Kubernetes version is the one its image ships
const upstream = (name: string) => read(`./fixtures/${name}.yaml.txt`);

describe('generateConfigs', () => {
  it('defaults to the Kubernetes version the image ships', () => {
    const manifest = read('../../../images/components.yaml');
    const shipped = parseComponents(manifest).find((c) => c.name === 'kubernetes')!.version;
    expect(`v${DEFAULT_KUBERNETES_VERSION}`).toBe(shipped);
  });

  const out = generateConfigs({ clusterName: 'demo', endpoint: 'https://10.5.0.2:6443', secrets });

  it('writes controlplane.yaml exactly as talosctl v1.13.0 does', () => {
    expect(encode(out.controlplane)).toBe(upstream('controlplane'));
  });

  it('writes worker.yaml exactly as talosctl v1.13.0 does', () => {
    expect(encode(out.worker)).toBe(upstream('worker'));
  });

  it('leaves out what upstream writes only for older contracts (#28)', () => {
    const cp = v1alpha1Of(out.controlplane)!;
    expect(cp.machine).not.toHaveProperty('network');
    expect(cp.machine).not.toHaveProperty('registries');
    expect(cp.machine!.features).not.toHaveProperty('rbac');
    expect(cp.machine!.features).not.toHaveProperty('apidCheckExtKeyUsage');
    expect(cp.cluster!.apiServer).not.toHaveProperty('certSANs');
    expect(cp.cluster!.apiServer).not.toHaveProperty('disablePodSecurityPolicy');
  });

  it('writes the v1.11 contract exactly as talosctl v1.13.0 does for --talos-version v1.11', () => {
    const old = generateConfigs({
      clusterName: 'demo',
      endpoint: 'https://10.5.0.2:6443',
      secrets,
      talosVersion: 'v1.11',
    });
    expect(encode(old.controlplane)).toBe(upstream('controlplane-v1.11'));
    expect(encode(old.worker)).toBe(upstream('worker-v1.11'));
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
    // the current contract no longer adds the endpoint's host
    expect(a.cluster().apiServer!.certSANs).toEqual(['10.0.0.10', 'api.example.org']);
    expect(a.install()!.image).toBe('ghcr.io/siderolabs/installer:v1.13.0');
  });

  it('keeps the installer image when --talos-version picks an older contract', () => {
    const g = generateConfigs({
      clusterName: 'c',
      endpoint: 'https://10.0.0.1:6443',
      secrets,
      talosVersion: 'v1.8.2',
    });
    expect(accessors(g.worker).install()!.image).toBe('ghcr.io/siderolabs/installer:v1.13.0');
  });

  it('writes the endpoint as given and no Kubernetes images for an empty version, as upstream', () => {
    const g = generateConfigs({
      clusterName: 'c',
      endpoint: 'https://API.example.org:443',
      secrets,
      kubernetesVersion: '',
    });
    const text = encode(g.controlplane);
    expect(text).toContain('endpoint: https://API.example.org:443\n');
    expect(text).not.toContain('image: registry.k8s.io');
    expect(text).not.toContain('kubelet:v');
  });

  it('rejects a --talos-version that is not a version, or older than Keel generates', () => {
    for (const talosVersion of ['latest', 'v1.6.7'])
      expect(() =>
        generateConfigs({ clusterName: 'c', endpoint: 'https://10.0.0.1:6443', secrets, talosVersion }),
      ).toThrow(ConfigErrors);
  });

  it('rejects an endpoint that is not an https URL', () => {
    expect(() => generateConfigs({ clusterName: 'c', endpoint: '10.0.0.1:6443', secrets })).toThrow(
      ConfigErrors,
    );
  });
});
