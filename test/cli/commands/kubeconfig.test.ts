// keelctl kubeconfig against a real node answering with the real Kubeconfig handler: written to a path,
// into a directory, to stdout, merged into an existing kubeconfig, and refused over an existing file.
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { kubeconfigHandler } from '../../../src/api/machine-stateful/index.js';
import { type Config, generateConfigs, mintSecrets, v1alpha1Of } from '../../../src/config/index.js';
import { run, startNode, type TestNode, type Workdir, workdir } from '../fixtures.js';

let node: TestNode;
let wd: Workdir;
let controlplane: Config;
/** HOME is the work directory, so nothing the tests do reaches the real ~/.kube/config */
const env = () => ({ TALOSCONFIG: wd.talosconfig, HOME: wd.dir, KUBECONFIG: '' });
const read = (path: string) => parse(readFileSync(path, 'utf8'));

beforeAll(async () => {
  const secrets = await mintSecrets();
  ({ controlplane } = generateConfigs({ clusterName: 'demo', endpoint: 'https://10.5.0.2:6443', secrets }));
  node = await startNode('cp-1', {
    '/machine.MachineService/Kubeconfig': kubeconfigHandler({ active: () => controlplane }),
  });
  wd = await workdir(node.server.address);
});
afterAll(async () => {
  await node?.server.close({ signal: AbortSignal.timeout(5_000) });
  wd?.remove();
});

describe('keelctl kubeconfig', () => {
  it('writes the admin kubeconfig to a new path, mode 0600, its certificate from the cluster CA', async () => {
    const path = join(wd.dir, 'new', 'kubeconfig.yaml');
    const r = await run(['kubeconfig', path], env());
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const doc = read(path);
    expect(doc.clusters[0].cluster.server).toBe('https://10.5.0.2:6443');
    const crt = new X509Certificate(Buffer.from(doc.users[0].user['client-certificate-data'], 'base64'));
    const ca = new X509Certificate(Buffer.from(v1alpha1Of(controlplane)!.cluster!.ca!.crt!, 'base64'));
    expect(crt.verify(ca.publicKey)).toBe(true);
  });

  it('names the file kubeconfig inside a directory, and prints it with -', async () => {
    const dir = join(wd.dir, 'dir');
    mkdirSync(dir);
    expect((await run(['kubeconfig', dir], env())).code).toBe(0);
    expect(read(join(dir, 'kubeconfig'))['current-context']).toBe('admin@demo');
    const out = await run(['kubeconfig', '-'], env());
    expect(out.code).toBe(0);
    expect(parse(out.stdout)['current-context']).toBe('admin@demo');
  });

  it('merges into ~/.kube/config by default, renaming what clashes, and keeps other clusters', async () => {
    const kube = join(wd.dir, '.kube', 'config');
    mkdirSync(join(wd.dir, '.kube'), { recursive: true });
    const other = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'demo', cluster: { server: 'https://elsewhere:6443' } }],
      users: [],
      contexts: [],
      'current-context': '',
    };
    writeFileSync(kube, stringify(other));
    const r = await run(['kubeconfig'], env());
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'renamed cluster "demo" -> "demo-1"',
        'renamed auth info "admin@demo" -> "admin@demo-1"',
        'renamed context "admin@demo" -> "admin@demo-1"',
        '',
      ].join('\n'),
    );
    const doc = read(kube);
    expect(doc.clusters.map((c: { name: string }) => c.name)).toEqual(['demo', 'demo-1']);
    expect(doc['current-context']).toBe('admin@demo-1');
    expect(doc.contexts[0].context).toEqual({
      cluster: 'demo-1',
      namespace: 'default',
      user: 'admin@demo-1',
    });
  });

  it('refuses to replace a file without --merge unless forced', async () => {
    const path = join(wd.dir, 'kept');
    writeFileSync(path, 'mine\n');
    const r = await run(['kubeconfig', '--merge=false', path], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`error: kubeconfig file already exists, use --force to overwrite: "${path}"\n`);
    expect(readFileSync(path, 'utf8')).toBe('mine\n');
    expect((await run(['kubeconfig', '--merge=false', '--force', path], env())).code).toBe(0);
    expect(read(path).kind).toBe('Config');
  });
});
