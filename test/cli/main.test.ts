// keelctl run as a child process, as a user would run it.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  accessors,
  decode,
  decodeSecretsBundle,
  decodeTalosconfig,
  encode,
  validate,
} from '../../src/config/index.js';
import { pemLabel } from '../../src/config/validate/formats.js';

const root = new URL('../../', import.meta.url).pathname;
const fixture = (name: string) => join(root, 'test/config/fixtures', `${name}.txt`);
/** what talosctl v1.13.0 wrote for the fixture secrets, unchanged: keelctl's output must be byte for byte it */
const upstream = (name: string) => join(root, 'test/config/generate/fixtures', `${name}.txt`);

async function keelctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npx', ['tsx', 'src/cli/main.ts', ...args], {
      cwd: root,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout: string; stderr: string };
    return { code: err.code ?? -1, stdout: err.stdout, stderr: err.stderr };
  }
}

const tmp = () => mkdtempSync(join(tmpdir(), 'keelctl-'));
const pem = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

describe('keelctl validate', { timeout: 60_000 }, () => {
  it('exits 0 for a valid config', async () => {
    const r = await keelctl('validate', '--config', fixture('controlplane.yaml'), '--mode', 'metal');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('is valid for metal mode');
  });

  it('exits 1 and prints each error with its field and line', async () => {
    const dir = tmp();
    const file = join(dir, 'bad.yaml');
    const text = readFileSync(fixture('worker.yaml'), 'utf8')
      .replace('    type: worker\n', '    type: master\n')
      .replace('        dnsDomain: cluster.local\n', '        dnsDomain: cluster..local\n');
    writeFileSync(file, text);
    const r = await keelctl('validate', '-c', file, '-m', 'cloud');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('2 errors occurred');
    expect(r.stderr).toContain('v1alpha1 machine.type (line 5): unknown machine type "master"');
    expect(r.stderr).toContain(
      'v1alpha1 cluster.network.dnsDomain (line 39): "cluster..local" is not a valid DNS name',
    );
  });

  it('prints warnings and still exits 0, but --strict fails', async () => {
    const dir = tmp();
    const file = join(dir, 'join.yaml');
    writeFileSync(
      file,
      readFileSync(fixture('worker.yaml'), 'utf8').replace('    type: worker\n', '    type: join\n'),
    );
    const loose = await keelctl('validate', '-c', file, '-m', 'metal');
    expect(loose.code).toBe(0);
    expect(loose.stderr).toContain('warning: v1alpha1 machine.type (line 5): use "worker" instead of "join"');
    const strict = await keelctl('validate', '-c', file, '-m', 'metal', '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('use "worker" instead of "join"');
  });

  it('exits 1 with a usage error naming what is missing or wrong', async () => {
    const noMode = await keelctl('validate', '-c', fixture('worker.yaml'));
    expect(noMode.code).toBe(1);
    expect(noMode.stderr).toContain('required flag "mode" not set');
    const badMode = await keelctl('validate', '-c', fixture('worker.yaml'), '-m', 'vm');
    expect(badMode.stderr).toContain('unknown mode "vm"');
    const undecodable = await keelctl('validate', '-c', fixture('secrets.yaml'), '-m', 'metal');
    expect(undecodable.code).toBe(1);
    expect(undecodable.stderr).toContain('v1alpha1 secrets (line 4): unknown field "secrets"');
  });
});

describe('keelctl gen config', { timeout: 60_000 }, () => {
  it('writes controlplane.yaml, worker.yaml and talosconfig that reuse --with-secrets', async () => {
    const out = tmp();
    const r = await keelctl(
      'gen',
      'config',
      'demo',
      'https://10.5.0.2:6443',
      '--with-secrets',
      fixture('secrets.yaml'),
      '-o',
      out,
    );
    expect(r.stderr).toContain(`created ${join(out, 'talosconfig')}`);
    expect(r.code).toBe(0);
    const cp = readFileSync(join(out, 'controlplane.yaml'), 'utf8');
    expect(cp).toBe(readFileSync(upstream('controlplane.yaml'), 'utf8'));
    expect(readFileSync(join(out, 'worker.yaml'), 'utf8')).toBe(
      readFileSync(upstream('worker.yaml'), 'utf8'),
    );
    for (const name of ['controlplane.yaml', 'worker.yaml']) {
      const text = readFileSync(join(out, name), 'utf8');
      const cfg = decode(text);
      expect(validate(cfg, { mode: 'metal' }).errors).toEqual([]);
      expect(encode(cfg)).toBe(text);
    }
    const secrets = decodeSecretsBundle(readFileSync(fixture('secrets.yaml'), 'utf8'));
    const tc = decodeTalosconfig(readFileSync(join(out, 'talosconfig'), 'utf8'));
    const ctx = tc.contexts[tc.context]!;
    expect(tc.context).toBe('demo');
    expect(ctx.ca).toBe(secrets.certs.os.crt);
    const ca = new X509Certificate(pem(ctx.ca));
    const admin = new X509Certificate(pem(ctx.crt));
    expect(admin.verify(ca.publicKey)).toBe(true);
    expect(admin.subject).toContain('O=os:admin');
    expect(pemLabel(ctx.key)).toBe('ED25519 PRIVATE KEY');
  });

  it('applies patches, disk, SANs and versions', async () => {
    const out = tmp();
    const patchFile = join(out, 'hostname.yaml');
    writeFileSync(patchFile, 'machine:\n  network:\n    nameservers:\n      - 9.9.9.9\n');
    const r = await keelctl(
      'gen',
      'config',
      'lab',
      'https://lab.example.org:6443',
      '--with-secrets',
      fixture('secrets.yaml'),
      '--config-patch',
      `@${patchFile}`,
      '--config-patch-control-plane',
      'cluster:\n  allowSchedulingOnControlPlanes: true\n',
      '--config-patch-worker',
      '{"machine":{"nodeLabels":{"role":"gpu"}}}',
      '--install-disk',
      '/dev/nvme0n1',
      '--additional-sans',
      '10.0.0.10,lab.internal',
      '--kubernetes-version',
      '1.35.2',
      '-o',
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const cp = accessors(decode(readFileSync(join(out, 'controlplane.yaml'), 'utf8')));
    const w = accessors(decode(readFileSync(join(out, 'worker.yaml'), 'utf8')));
    expect(cp.resolvers()).toEqual(['9.9.9.9']);
    expect(w.resolvers()).toEqual(['9.9.9.9']);
    expect(cp.cluster().allowSchedulingOnControlPlanes).toBe(true);
    expect(w.cluster().allowSchedulingOnControlPlanes).toBeUndefined();
    expect(w.nodeLabels()).toEqual({ role: 'gpu' });
    expect(cp.install()!.disk).toBe('/dev/nvme0n1');
    expect(cp.certSANs()).toEqual(['10.0.0.10', 'lab.internal']);
    // the endpoint's host is no longer written (upstream's current contract); the certificate still names it
    expect(cp.cluster().apiServer!.certSANs).toEqual(['10.0.0.10', 'lab.internal']);
    expect(cp.kubelet().image).toBe('ghcr.io/siderolabs/kubelet:v1.35.2');
  });

  it('refuses to overwrite without --force and rejects a bad patch with its line', async () => {
    const out = tmp();
    const args = [
      'gen',
      'config',
      'demo',
      'https://10.5.0.2:6443',
      '--with-secrets',
      fixture('secrets.yaml'),
      '-o',
      out,
    ];
    expect((await keelctl(...args)).code).toBe(0);
    const again = await keelctl(...args);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('controlplane.yaml already exists, use --force to overwrite');
    expect((await keelctl(...args, '--force')).code).toBe(0);
    const bad = await keelctl(...args, '--force', '--config-patch', 'machine:\n  netwrok: {}\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('v1alpha1 machine.netwrok (line 2): unknown field "netwrok"');
    // generated configs hold two documents, and JSON patches work on one-document configs only (as upstream)
    const json = await keelctl(...args, '--force', '--config-patch', '[{"op":"remove","path":"/debug"}]');
    expect(json.code).toBe(1);
    expect(json.stderr).toContain(
      'JSON6902 patches are not supported for multi-document machine configuration',
    );
  });
  it('writes only the chosen output type, to the file -o names', async () => {
    const out = tmp();
    const file = join(out, 'w.yaml');
    const r = await keelctl(
      'gen',
      'config',
      'demo',
      'https://10.5.0.2:6443',
      '--with-secrets',
      fixture('secrets.yaml'),
      '-t',
      'worker',
      '-o',
      file,
      '--with-docs=false',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(['w.yaml']);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(upstream('worker.yaml'), 'utf8'));
    const bad = await keelctl('gen', 'config', 'demo', 'https://10.5.0.2:6443', '-t', 'kubeconfig');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown output type "kubeconfig"');
  });
});

describe('keelctl gen secrets', { timeout: 60_000 }, () => {
  it('mints a bundle that gen config accepts', async () => {
    const out = tmp();
    const file = join(out, 'secrets.yaml');
    const r = await keelctl('gen', 'secrets', '-o', file);
    expect(r.code).toBe(0);
    const bundle = decodeSecretsBundle(readFileSync(file, 'utf8'));
    expect(pemLabel(bundle.certs.os.key)).toBe('ED25519 PRIVATE KEY');
    expect(pemLabel(bundle.certs.k8sserviceaccount.key)).toMatch(/PRIVATE KEY$/);
    expect(new X509Certificate(pem(bundle.certs.etcd.crt)).subject).toContain('O=etcd');
    const g = await keelctl(
      'gen',
      'config',
      'fresh',
      'https://10.0.0.1:6443',
      '--with-secrets',
      file,
      '-o',
      out,
    );
    expect(g.code).toBe(0);
    const cp = decode(readFileSync(join(out, 'controlplane.yaml'), 'utf8'));
    expect(accessors(cp).token()).toBe(bundle.trustdinfo.token);
    expect(validate(cp, { mode: 'metal' }).errors).toEqual([]);
  });

  it('gen config without --with-secrets mints fresh secrets', async () => {
    const out = tmp();
    const r = await keelctl('gen', 'config', 'fresh', 'https://10.0.0.1:6443', '-o', out);
    expect(r.code).toBe(0);
    const w = decode(readFileSync(join(out, 'worker.yaml'), 'utf8'));
    expect(validate(w, { mode: 'metal' }).errors).toEqual([]);
    expect(accessors(w).token()).not.toBe(
      decodeSecretsBundle(readFileSync(fixture('secrets.yaml'), 'utf8')).trustdinfo.token,
    );
  });
});
