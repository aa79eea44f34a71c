// The stock talosctl drives a container-mode node: every command the suite lists either works and prints
// what upstream prints for that data, or answers a clear Unimplemented naming its RPC. Never a hang (each
// call has a deadline), a decode error or a raw transport error. docs/talosctl.md keeps the same list.

import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { nodenameFromHostname } from '../../../controllers/k8s/internal/nodename.js';
import { kubeconfigHandler } from '../../../src/api/machine-stateful/index.js';
import { decode } from '../../../src/config/index.js';
import {
  CriWriter,
  copyComponents,
  HELLO_C,
  removeEverything,
  SANDBOX_IMAGE,
  sandboxImage,
  staticProgram,
  unmountUnder,
} from '../../containerd/fixtures.js';
import { type OciArchive, ociArchive } from '../../containerd/oci-archive.js';
import { componentDir } from '../../etcd/fixtures.js';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { caOf, startInProcessApi } from './in-process-api.js';
import { killTalosctls, type Run, talosctl, talosctlFollow, talosctlPath } from './talosctl.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
let bin: string;
let dir: string;
let node: NodeProcess;
let talosconfig: string;
/** KubePrism's port on the first node: a container node shares the host's network, so never the fixed 7445 */
let prismPort: number;

/** onFreePrismPort patches a config's KubePrism onto a free port (apply-config's -p flag and value) */
const onFreePrismPort = async (port?: number) => [
  '-p',
  JSON.stringify({ machine: { features: { kubePrism: { port: port ?? (await freePort()) } } } }),
];

/** tc runs talosctl against the node, routed as a user would: endpoint host:port, node by its address. */
const tc = (...args: string[]) =>
  talosctl(bin, ['-e', node.address, '-n', '127.0.0.1', ...args], { talosconfig, cwd: dir });

/** works: exit 0, nothing on stderr but expected notes, and no sign of a decode or transport failure. */
function works(r: Run): string {
  expect(r.timedOut, r.output).toBe(false);
  expect(r.code, r.output).toBe(0);
  expect(r.stderr, r.output).not.toMatch(/older than client|rpc error|unmarshal|proto:|panic/i);
  return r.stdout;
}

/** unimplemented: a clear refusal that names the RPC, never a hang or another code. */
function unimplemented(r: Run, method: string) {
  expect(r.timedOut, r.output).toBe(false);
  expect(r.code, r.output).not.toBe(0);
  expect(r.output).toContain('code = Unimplemented');
  expect(r.output).toContain(method);
}

/** patchesTo applies `patch` with talosctl patch mc and finds `expected` in the config read back. */
async function patchesTo(run: (...args: string[]) => Promise<Run>, patch: string, expected: string) {
  const r = await run('patch', 'mc', '--mode', 'no-reboot', '-p', patch);
  expect(r.code, r.output).toBe(0);
  expect(r.output).toContain('patched MachineConfigs.config.talos.dev/v1alpha1 at the node 127.0.0.1');
  expect(works(await run('get', 'mc', '-o', 'yaml'))).toContain(expected);
}

beforeAll(async () => {
  bin = talosctlPath();
  dir = mkdtempSync(join(tmpdir(), 'keel-talosctl-'));
  node = await spawnNode(tempStateDir(), await freePort());
  await node.waitForLine(/server certificate fingerprint: /);
  // talosctl's own generated config, applied in maintenance mode
  works(await talosctl(bin, ['gen', 'config', 'keel-tc', 'https://127.0.0.1:6443', '-o', dir], { cwd: dir }));
  talosconfig = join(dir, 'talosconfig');
  prismPort = await freePort();
  const applied = await talosctl(
    bin,
    [
      'apply-config',
      '--insecure',
      '-n',
      node.address,
      '-f',
      join(dir, 'controlplane.yaml'),
      ...(await onFreePrismPort(prismPort)),
    ],
    { cwd: dir },
  );
  expect(applied.code, applied.output).toBe(0);
  expect(applied.output).toContain('Applied configuration without a reboot');
  await node.waitForLine(/node running/);
}, 30 * 60_000);

afterAll(async () => {
  killTalosctls();
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('talosctl against a container node', () => {
  it('version: the server answers the API level it implements, with no version warning', async () => {
    const out = works(await tc('version'));
    expect(out).toMatch(/Server:\n\tNODE:\s+127\.0\.0\.1\n\tTag:\s+v1\.13\.0\+keel/);
    expect(out).toContain('Enabled:     RBAC');
  });

  it('get rd lists every registered type, and each reads as a table, YAML and JSON', async () => {
    const json = works(await tc('get', 'rd', '-o', 'json'));
    const types = [...json.matchAll(/"id": "([a-z0-9.-]+)"/g)].map((m) => m[1]!);
    expect(types).toContain('machinestatuses.runtime.talos.dev');
    expect(types).toContain('machineconfigs.config.talos.dev');
    expect(types.length).toBeGreaterThan(10);
    for (const type of types) {
      const [table, yaml, asJson] = (
        await Promise.all([tc('get', type), tc('get', type, '-o', 'yaml'), tc('get', type, '-o', 'json')])
      ).map(works) as [string, string, string];
      // a type with no resource prints nothing or its header alone (the network types of a container
      // node, which keeps its host's network), and no YAML or JSON, as upstream
      if (table.trim() === '' || /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION[^\n]*$/.test(table.trim())) {
        expect(yaml + asJson, type).toBe('');
        continue;
      }
      expect(table, type).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION/);
      expect(yaml, type).toMatch(/^node: 127\.0\.0\.1\nmetadata:\n {4}namespace: /m);
      expect(asJson, type).toContain('"node": "127.0.0.1"');
    }
    // three talosctl runs for every registered type (side by side): past the default timeout on a busy machine
  }, 240_000);

  it("get kernelrefusals (Keel's own type) resolves by its aliases and prints its columns", async () => {
    // a container node runs no spec controller, so it has no refusal: the header alone
    for (const alias of ['kernelrefusals', 'refusals', 'kr', 'kernelrefusals.net.keel.dev']) {
      const out = works(await tc('get', alias));
      expect(out.trim(), alias).toMatch(
        /^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+ERRNO\s+ATTEMPTS\s+MESSAGE$/,
      );
    }
    const rd = works(await tc('get', 'rd', 'kernelrefusals.net.keel.dev', '-o', 'yaml'));
    expect(rd).toContain('defaultNamespace: network');
    expect(rd).toContain("jsonPath: '{.errno}'");
  });

  it('get --watch prints the current resources and then follows', async () => {
    for (const type of ['machinestatus', 'services', 'mc']) {
      const r = await talosctlFollow(
        bin,
        ['-e', node.address, '-n', '127.0.0.1', 'get', type, '--watch'],
        /\n127\.0\.0\.1\s+\+\s+/,
        { talosconfig, cwd: dir },
      );
      expect(r.matched, r.output).toBe(true);
      expect(r.stdout).toMatch(/^NODE\s+\*\s+NAMESPACE\s+TYPE/);
    }
  });

  it('get machinestatus, hostname, machineconfig: the columns and values upstream prints', async () => {
    expect(works(await tc('get', 'machinestatus'))).toMatch(/MachineStatus\s+machine\s+\d+\s+running\s+true/);
    const hostname = works(await tc('get', 'hostname'));
    expect(hostname).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+HOSTNAME\s+DOMAINNAME/);
    expect(hostname).not.toMatch(/HostnameStatus\s+hostname\s+\d+\s+\d+\s/); // no address split at its dots
    const mc = works(await tc('get', 'mc', '-o', 'yaml'));
    // the spec is the config file itself, every document of it
    expect(mc).toMatch(/\nspec: \|\n {4}version: v1alpha1\n/);
    expect(mc).toContain('talos.dev/yaml-spec');
  });

  it('get nodename: the Kubernetes name made from the hostname, as upstream prints it', async () => {
    const host = works(await tc('get', 'hostname', '-o', 'jsonpath={.spec.hostname}')).trim();
    const out = works(await tc('get', 'nodename'));
    expect(out).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+NODENAME\n/);
    const name = nodenameFromHostname(host).replaceAll('.', '\\.');
    expect(out).toMatch(new RegExp(`\\sk8s\\s+Nodename\\s+nodename\\s+\\d+\\s+${name}\\n`));
    const yaml = works(await tc('get', 'nodenames.kubernetes.talos.dev', 'nodename', '-o', 'yaml'));
    expect(yaml).toContain('skipNodeRegistration: false');
  });

  it("get nodeipconfig and nodeip: the kubelet's node IP, one of the node's own addresses", async () => {
    const cfg = works(await tc('get', 'nodeipconfig', 'kubelet', '-o', 'yaml'));
    expect(cfg).toMatch(/validSubnets:\n\s+- 0\.0\.0\.0\/0\n/);
    expect(cfg).toContain('- 10.244.0.0/16');
    const ip = works(await tc('get', 'nodeip', 'kubelet', '-o', 'jsonpath={.spec.addresses[0]}')).trim();
    const routed = works(await tc('get', 'nodeaddress', 'routed-no-k8s', '-o', 'yaml'));
    expect(ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(routed).toContain(`- ${ip}/`);
  });

  it('get staticpodserverstatus: the loopback URL the static pods are served on; kubeletconfig, kubeletspec, staticpods', async () => {
    const url = works(
      await tc('get', 'staticpodserverstatus', 'static-pod-server-status', '-o', 'jsonpath={.spec.url}'),
    ).trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // the kubelet's config points at it, with the cluster DNS of the generated config
    const kubelet = works(await tc('get', 'kubeletconfig', 'kubelet', '-o', 'yaml'));
    expect(kubelet).toContain(`staticPodListURL: ${url}\n`);
    expect(kubelet).toMatch(/clusterDNS:\n\s+- 10\.96\.0\.10\n\s+clusterDomain: cluster\.local\n/);
    // and its final spec: upstream's arguments with the node's IP, a container node's kernel left alone
    const ip = works(await tc('get', 'nodeip', 'kubelet', '-o', 'jsonpath={.spec.addresses[0]}')).trim();
    const spec = works(await tc('get', 'kubeletspec', 'kubelet', '-o', 'yaml'));
    // a container node keeps the kubelet's files in its state directory
    expect(spec).toMatch(/- --config=\S+\/keel-node-\w+\/etc\/kubernetes\/kubelet\.yaml\n/);
    expect(spec).toContain(`- --node-ip=${ip}\n`);
    expect(spec).toContain('protectKernelDefaults: false\n');
    expect(spec).toContain(`staticPodURL: ${url}\n`);
    // no control plane static pod: this node runs no etcd (the next describe's does), so none is listed
    expect(works(await tc('get', 'staticpods')).trim()).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION$/);
  });

  it('get apiserverconfig, controllermanagerconfig, schedulerconfig: a control plane’s component configs', async () => {
    const api = works(await tc('get', 'apiserverconfig', '-o', 'yaml'));
    expect(api).toContain('namespace: controlplane\n');
    expect(api).toContain('controlPlaneEndpoint: https://127.0.0.1:6443\n');
    expect(api).toMatch(/serviceCIDR:\n\s+- 10\.96\.0\.0\/12\n/);
    expect(works(await tc('get', 'controllermanagerconfig'))).toMatch(
      /controlplane\s+ControllerManagerConfig\s+kube-controller-manager\s+\d+/,
    );
    expect(works(await tc('get', 'schedulerconfig', 'kube-scheduler', '-o', 'yaml'))).toContain(
      'enabled: true\n',
    );
  });

  it('get bootstrapmanifestsconfig and manifests: the bootstrap manifests a control plane renders', async () => {
    const cfg = works(await tc('get', 'bootstrapmanifestsconfig', 'manifests', '-o', 'yaml'));
    expect(cfg).toContain('namespace: controlplane\n');
    // talosctl's generated config runs KubePrism, so the in-cluster kubeconfig names it
    expect(cfg).toContain(`string: https://127.0.0.1:${prismPort}\n`);
    expect(cfg).toContain('cniName: flannel\n');
    const ids = [...works(await tc('get', 'manifests')).matchAll(/\scontrolplane\s+Manifest\s+(\S+)\s/g)];
    expect(ids.map((m) => m[1])).toEqual([
      '00-kubelet-bootstrapping-token',
      '01-csr-approver-role-binding',
      '01-csr-node-bootstrap',
      '01-csr-renewal-role-binding',
      '05-flannel',
      '10-kube-proxy',
      '11-core-dns',
      '11-core-dns-svc',
      '11-kube-config-in-cluster',
      '11-talos-node-rbac-template',
    ]);
    const svc = works(await tc('get', 'manifests', '11-core-dns-svc', '-o', 'yaml'));
    expect(svc).toMatch(/clusterIP: 10\.96\.0\.10\n/);
    expect(works(await tc('get', 'manifests', '05-flannel', '-o', 'json'))).toContain('"kind": "DaemonSet"');
  });

  it('get kubeprismendpoints, kubeprismconfigs, kubeprismstatuses: KubePrism on its (patched) port', async () => {
    const endpoints = works(await tc('get', 'kubeprismendpoints', 'k8s-cluster', '-o', 'yaml'));
    expect(endpoints).toContain('namespace: k8s\n');
    // the cluster endpoint, then this control plane's own API server
    expect(endpoints).toMatch(
      /endpoints:\n\s+- host: 127\.0\.0\.1\n\s+port: 6443\n\s+- host: localhost\n\s+port: 6443\n/,
    );
    expect(works(await tc('get', 'kubeprismconfigs'))).toMatch(
      new RegExp(
        `\\sk8s\\s+KubePrismConfig\\s+k8s-loadbalancer-config\\s+\\d+\\s+127\\.0\\.0\\.1\\s+${prismPort}\\s`,
      ),
    );
    const status = works(await tc('get', 'kubeprismstatuses'));
    expect(status).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+HOST\s+HEALTHY\n/);
    // healthy until checks find no API server behind either endpoint (this node runs none)
    expect(status).toMatch(
      new RegExp(
        `\\sk8s\\s+KubePrismStatus\\s+k8s-loadbalancer\\s+\\d+\\s+127\\.0\\.0\\.1:${prismPort}\\s+(true|false)\\n`,
      ),
    );
  });

  it('get nodelabelspecs, nodetaintspecs: the control plane’s role label and NoSchedule taint, as upstream decides them', async () => {
    const ROLE = 'node-role.kubernetes.io/control-plane';
    const labels = works(await tc('get', 'nodelabelspecs'));
    expect(labels).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+VALUE\n/);
    expect(labels).toMatch(
      new RegExp(`\\sk8s\\s+NodeLabelSpec\\s+${ROLE.replaceAll('.', '\\.')}\\s+\\d+\\s*\\n`),
    );
    // talosctl's generated control plane config asks for it too
    expect(labels).toMatch(
      /\sk8s\s+NodeLabelSpec\s+node\.kubernetes\.io\/exclude-from-external-load-balancers\s+\d+\s*\n/,
    );
    expect(works(await tc('get', 'nodelabelspecs', ROLE, '-o', 'yaml'))).toContain(
      `spec:\n    key: ${ROLE}\n    value: ""\n`,
    );
    const taints = works(await tc('get', 'nodetaintspecs'));
    expect(taints).toMatch(/^NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+EFFECT\s+VALUE\n/);
    expect(taints).toMatch(
      new RegExp(`\\sk8s\\s+NodeTaintSpec\\s+${ROLE.replaceAll('.', '\\.')}\\s+\\d+\\s+NoSchedule\\s*\\n`),
    );
    // the generated config sets no annotation, and a running node is not cordoned
    expect(works(await tc('get', 'nodeannotationspecs')).trim()).toMatch(
      /^(NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION\s+VALUE)?$/,
    );
    expect(works(await tc('get', 'nodecordonedspecs')).trim()).toMatch(
      /^(NODE\s+NAMESPACE\s+TYPE\s+ID\s+VERSION)?$/,
    );
  });

  it('services and service <id>, machined included', async () => {
    const list = works(await tc('services'));
    expect(list).toMatch(/^NODE\s+SERVICE\s+STATE\s+HEALTH\s+LAST CHANGE\s+LAST EVENT/);
    expect(list).toMatch(/127\.0\.0\.1\s+apid\s+Running\s+OK/);
    expect(list).toMatch(/127\.0\.0\.1\s+machined\s+Running\s+/);
    const apid = works(await tc('service', 'apid'));
    expect(apid).toMatch(/ID\s+apid\nSTATE\s+Running\nHEALTH\s+OK\nEVENTS\s+\[Running\]/);
    expect(works(await tc('service', 'machined'))).toMatch(/ID\s+machined\nSTATE\s+Running/);
    // the node's own services are not for a client to stop: that would cut off the API itself
    const stop = await tc('service', 'apid', 'stop');
    expect(stop.code, stop.output).not.toBe(0);
    expect(stop.output).toContain('code = FailedPrecondition');
    expect(stop.output).toContain(`service "apid" doesn't support stop operation via API`);
    expect(works(await tc('service', 'apid'))).toMatch(/STATE\s+Running/);
  });

  it('logs and dmesg', async () => {
    expect(works(await tc('logs', 'machined'))).toMatch(/127\.0\.0\.1: .*node running/);
    expect(works(await tc('logs', 'apid'))).toContain('serving the machine API with mutual TLS');
    expect(works(await tc('dmesg'))).toMatch(/127\.0\.0\.1: kern: +\w+: \[\d{4}-\d\d-\d\dT/);
  });

  it('processes, memory, mounts', async () => {
    const ps = works(await tc('processes'));
    expect(ps).toMatch(/^NODE\s+PID\s+STATE\s+THREADS\s+CPU-TIME\s+VIRTMEM\s+RESMEM/);
    expect(ps).toContain('container-entry.ts');
    expect(works(await tc('memory'))).toMatch(
      /^NODE\s+TOTAL\s+USED\s+FREE\s+SHARED\s+BUFFERS\s+CACHE\s+AVAILABLE\n127\.0\.0\.1\s+\d+/,
    );
    expect(works(await tc('mounts'))).toMatch(/^NODE\s+FILESYSTEM\s+SIZE\(GB\)\s+USED\(GB\)/);
  });

  it('ls, ls -l, ls -r, read and copy', async () => {
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'a', 'b'), { recursive: true });
    writeFileSync(join(tree, 'a', 'b', 'deep.txt'), 'deep\n');
    expect(works(await tc('ls', tree))).toMatch(/^NODE\s+NAME\n127\.0\.0\.1\s+\.\n127\.0\.0\.1\s+a\n/);
    expect(works(await tc('ls', '-l', tree))).toMatch(
      /^NODE\s+MODE\s+UID\s+GID\s+SIZE\(B\)\s+LASTMOD\s+LABEL\s+NAME/,
    );
    expect(works(await tc('ls', '-r', tree))).toContain('a/b/deep.txt');
    expect(works(await tc('read', join(tree, 'a', 'b', 'deep.txt')))).toBe('deep\n');
    const dest = join(dir, 'copied');
    works(await tc('copy', join(tree, 'a'), dest));
    // the directory's contents land in the destination, as upstream's copy extracts them
    expect(readFileSync(join(dest, 'b', 'deep.txt'), 'utf8')).toBe('deep\n');
  });

  it('events follows the machine events', async () => {
    const r = await talosctlFollow(
      bin,
      ['-e', node.address, '-n', '127.0.0.1', 'events', '--tail', '-1'],
      /talos\/runtime\/machine\.MachineStatusEvent/,
      { talosconfig, cwd: dir },
    );
    expect(r.matched, r.output).toBe(true);
    expect(r.stdout).toMatch(/^NODE\s+ID\s+EVENT\s+ACTOR\s+SOURCE\s+MESSAGE/);
  });

  it('config info reads the talosconfig', async () => {
    const out = works(await talosctl(bin, ['config', 'info'], { talosconfig, cwd: dir }));
    expect(out).toMatch(/Current context:\s+keel-tc/);
    expect(out).toMatch(/Roles:\s+os:admin/);
  });

  it('time, stats, netstat: Unimplemented, naming the RPC', async () => {
    unimplemented(await tc('time'), 'Time');
    unimplemented(await tc('stats'), '/machine.MachineService/Stats');
    unimplemented(await tc('netstat'), '/machine.MachineService/Netstat');
  });

  it('kubeconfig: the admin kubeconfig for the endpoint, its certificate from the cluster CA; a second run merges', async () => {
    const path = join(dir, 'kube', 'admin.yaml');
    works(await tc('kubeconfig', path));
    const doc = parseYaml(readFileSync(path, 'utf8'));
    expect(doc.clusters[0].cluster.server).toBe('https://127.0.0.1:6443');
    expect(doc['current-context']).toBe('admin@keel-tc');
    const ca = join(dir, 'kube', 'ca.pem');
    const crt = join(dir, 'kube', 'admin.pem');
    writeFileSync(ca, caOf(join(dir, 'controlplane.yaml'), 'cluster').crt);
    writeFileSync(crt, Buffer.from(doc.users[0].user['client-certificate-data'], 'base64'));
    expect(execFileSync('openssl', ['verify', '-CAfile', ca, crt], { encoding: 'utf8' })).toContain('OK');
    expect(new X509Certificate(readFileSync(crt)).subject).toBe('O=system:masters\nCN=admin');
    // merged into the same file: a fresh certificate each call, so talosctl renames the user and context
    const merged = works(await tc('kubeconfig', path));
    expect(merged).toContain('renamed auth info "admin@keel-tc" -> "admin@keel-tc-1"');
    const after = parseYaml(readFileSync(path, 'utf8'));
    expect(after.users).toHaveLength(2);
    expect(after['current-context']).toBe('admin@keel-tc-1');
  });

  it('kubeconfig on a worker: Unimplemented, only on control plane nodes', async () => {
    // a worker's apid needs trustd for its certificate, so the worker config is served in-process here
    const worker = decode(readFileSync(join(dir, 'worker.yaml'), 'utf8'));
    const server = await startInProcessApi(join(dir, 'controlplane.yaml'), {
      '/machine.MachineService/Kubeconfig': kubeconfigHandler({ active: () => worker }),
    });
    try {
      const args = ['-e', server.address, '-n', '127.0.0.1', 'kubeconfig', join(dir, 'worker-kubeconfig')];
      const r = await talosctl(bin, args, { talosconfig, cwd: dir });
      expect(r.code, r.output).not.toBe(0);
      // the status surfaces as talosctl reads the stream: "error initializing gzip: rpc error: …"
      expect(r.stderr).toContain(
        'rpc error: code = Unimplemented desc = kubeconfig is only available on control plane nodes',
      );
    } finally {
      await server.close({ signal: AbortSignal.timeout(5_000) });
    }
  });

  it('cgroups reads the cgroup tree through Copy', async () => {
    // a container node's tree is the host's, which may be cgroup v1 (talosctl's cpu preset then fails in
    // its own template on v1's cpu.stat); the memory preset reads either, and the QEMU node checks cpu
    const r = await tc('cgroups', '--preset', 'memory');
    expect(r.code, r.output).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+MemCurrent\s+MemPeak/);
    expect(r.stdout).not.toContain('%!');
  });

  it('edit mc and patch mc (a merge patch) change the applied config', async () => {
    const edit = await talosctl(
      bin,
      ['-e', node.address, '-n', '127.0.0.1', 'edit', 'mc', '--mode', 'no-reboot'],
      { talosconfig, cwd: dir, env: { TALOS_EDITOR: 'true' } },
    );
    expect(edit.code, edit.output).toBe(0);
    expect(edit.stderr).toContain('Apply was skipped: no changes detected.');

    await patchesTo(tc, '{"machine":{"sysctls":{"keel.tc":"merge"}}}', 'keel.tc: merge');
  });

  it('a config read back from the node applies again', async () => {
    const spec = works(await tc('get', 'mc', 'v1alpha1', '-o', 'jsonpath={.spec}'));
    const file = join(dir, 'read-back.yaml');
    writeFileSync(file, spec);
    const r = await tc('apply-config', '-f', file, '--mode', 'no-reboot');
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/Applied configuration without a reboot|no changes/);
  });

  it('reboot with the default --wait ends once the node is back, with a new boot id', async () => {
    const before = works(await tc('read', '/proc/sys/kernel/random/boot_id')).trim();
    const r = await tc('reboot', '--progress', 'plain');
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('post check passed');
    const after = works(await tc('read', '/proc/sys/kernel/random/boot_id')).trim();
    expect(after).not.toBe(before);
  }, 90_000);

  it('shutdown with the default --wait ends, and the node process with it', async () => {
    const r = await tc('shutdown');
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('events check condition met');
    expect(await node.exited).toBe(0);
  }, 90_000);
});

describe('talosctl with the node’s containerd (the components layer given)', () => {
  let wdir: string;
  let wstate: string;
  let wnode: NodeProcess;
  let socket: string;
  let hello: OciArchive;
  const wtc = (...args: string[]) =>
    talosctl(bin, ['-e', wnode.address, '-n', '127.0.0.1', ...args], { talosconfig, cwd: wdir });
  /** ctr: the layer's, against the node's containerd */
  const ctr = (...args: string[]) =>
    execFileSync(join(wdir, 'components/usr/bin/ctr'), ['--address', socket, ...args], {
      encoding: 'utf8',
      stdio: 'pipe',
    });
  /**
   * criImport imports an archive into k8s.io and waits until the CRI has taken its image in: it does so on
   * containerd's event, in its own time, and labels the image as its own (a pod finds none before that)
   */
  const criImport = async (file: string, ref: string) => {
    ctr('-n', 'k8s.io', 'images', 'import', file);
    for (const deadline = Date.now() + 30_000; ; ) {
      if (ctr('-n', 'k8s.io', 'images', 'ls', `name==${ref}`).includes('io.cri-containerd.image=managed'))
        return;
      expect(Date.now() < deadline, `the CRI takes ${ref} in`).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    // the layer here holds containerd, runc and etcd: this control plane serves its API, runs containerd,
    // and runs etcd once bootstrapped (the last test), so it is a node of its own
    wdir = mkdtempSync(join(tmpdir(), 'keel-talosctl-w-'));
    copyComponents(join(wdir, 'components'));
    // copied, not linked, and reachable: etcd runs as its own user (60)
    for (const b of ['etcd', 'etcdutl'])
      copyFileSync(join(componentDir('etcd'), b), join(wdir, 'components/usr/bin', b));
    chmodSync(wdir, 0o755);
    // a Kubernetes layer whose kubelet stands in for the real one, which would manage this host's cgroups
    mkdirSync(join(wdir, 'kubernetes/usr/bin'), { recursive: true });
    writeFileSync(join(wdir, 'kubernetes/usr/bin/kubelet'), '#!/bin/sh\nexec sleep 100000\n', {
      mode: 0o755,
    });
    wstate = tempStateDir();
    chmodSync(wstate, 0o755);
    socket = join(wstate, 'run/containerd/containerd.sock');
    wnode = await spawnNode(wstate, await freePort(), [
      '--components',
      join(wdir, 'components'),
      '--kubernetes',
      join(wdir, 'kubernetes'),
    ]);
    await wnode.waitForLine(/server certificate fingerprint: /);
    const applied = await talosctl(
      bin,
      [
        'apply-config',
        '--insecure',
        '-n',
        wnode.address,
        '-f',
        join(dir, 'controlplane.yaml'),
        ...(await onFreePrismPort()),
      ],
      { cwd: wdir },
    );
    expect(applied.code, applied.output).toBe(0);
    await wnode.waitForLine(/api: serving with mutual TLS/);
    for (const deadline = Date.now() + 60_000; ; ) {
      // not registered until the controllers have derived its spec
      if (/HEALTH\s+OK/.test((await wtc('service', 'containerd')).stdout)) break;
      expect(Date.now() < deadline, 'containerd healthy').toBe(true);
      await new Promise((r) => setTimeout(r, 500));
    }
    const program = staticProgram(wdir, 'hello', HELLO_C);
    hello = ociArchive(
      'docker.io/keel/hello:1',
      [{ path: 'hello', content: program, mode: 0o755 }],
      ['/hello'],
    );
    writeFileSync(join(wdir, 'hello.tar'), hello.tar);
    ctr('-n', 'system', 'images', 'import', join(wdir, 'hello.tar'));
    await criImport(join(wdir, 'hello.tar'), 'docker.io/keel/hello:1');
  }, 180_000);

  afterAll(async () => {
    // pods and containers first (their shims outlive containerd), then SIGTERM runs the shutdown
    // sequence, which stops containerd (a SIGKILL would leave it running)
    if (wnode && wnode.child.exitCode === null) {
      try {
        await removeEverything(socket, ctr);
      } finally {
        wnode.child.kill('SIGTERM');
        await Promise.race([wnode.exited, new Promise((r) => setTimeout(r, 30_000))]);
      }
    }
    // what containerd mounted for a container, should a failure have left one
    if (wstate) unmountUnder(wstate);
    if (wdir) rmSync(wdir, { recursive: true, force: true });
  }, 90_000);

  it('services lists the kubelet, run from the Kubernetes layer with its files in the state directory', async () => {
    for (const deadline = Date.now() + 60_000; ; ) {
      if (/127\.0\.0\.1\s+kubelet\s+Running\s/.test(works(await wtc('services')))) break;
      expect(Date.now() < deadline, 'kubelet running').toBe(true);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(readFileSync(join(wstate, 'etc/kubernetes/kubelet.yaml'), 'utf8')).toContain(
      `containerRuntimeEndpoint: unix://${socket}\n`,
    );
  }, 90_000);

  it('containers, image list (labels too) and logs -k read the node’s containerd', async () => {
    try {
      ctr('-n', 'system', 'run', '-d', 'docker.io/keel/hello:1', 'hello');
      expect(works(await wtc('containers'))).toMatch(
        /^NODE\s+NAMESPACE\s+ID\s+IMAGE\s+PID\s+STATUS\n127\.0\.0\.1\s+system\s+hello\s+docker\.io\/keel\/hello:1\s+\d+\s+RUNNING\n$/,
      );
      for (const args of [
        ['image', 'list'],
        ['image', 'list', '--namespace', 'system'],
      ]) {
        const list = works(await wtc(...args));
        expect(list, args.join(' ')).toMatch(/^NODE\s+IMAGE\s+DIGEST\s+SIZE\s+LABELS\s+CREATED\n/);
        // the size as containerd counts it (manifest, config, layer), as talosctl prints bytes; the labels
        // (ImageServiceListResponse.labels): the CRI marks the images of k8s.io (the default) as its own
        const kB = Math.round(hello.size / 1000);
        const labels = args.includes('system') ? '' : 'io\\.cri-containerd\\.image=managed\\s+';
        expect(list, args.join(' ')).toMatch(
          new RegExp(
            `\\n127\\.0\\.0\\.1\\s+docker\\.io/keel/hello:1\\s+${hello.manifestDigest}\\s+${kB} kB\\s+${labels}\\d{4}-`,
          ),
        );
      }
      const missing = await wtc('logs', '-k', 'default/web:hello');
      expect(missing.code, missing.output).not.toBe(0);
      expect(missing.output).toContain('code = NotFound');
      expect(missing.output).toContain('container "default/web:hello" not found');
    } finally {
      await removeEverything(socket, ctr);
    }
  }, 120_000);

  it('containers -k lists a CRI pod’s sandbox and container; logs -k prints what it wrote', async () => {
    // the CRI has no pod yet: its header alone
    expect(works(await wtc('containers', '-k')).trim()).toMatch(
      /^NODE\s+NAMESPACE\s+ID\s+IMAGE\s+PID\s+STATUS$/,
    );
    // the node ships no sandbox image yet, and the CRI would pull its default: one built here, imported
    // under the name the node's config keeps (the CRI's default), so nothing reaches a registry
    writeFileSync(join(wdir, 'pause.tar'), sandboxImage(wdir));
    await criImport(join(wdir, 'pause.tar'), SANDBOX_IMAGE);
    const logDir = join(wdir, 'pods');
    mkdirSync(logDir, { recursive: true });
    const cri = new CriWriter(socket);
    try {
      const pod = await cri.runPod({ name: 'web', namespace: 'default', uid: 'uid-1', logDir });
      const id = await cri.runContainer(pod, 'hello', 'docker.io/keel/hello:1', ['/hello']);
      const pause = SANDBOX_IMAGE.replace(/\./g, '\\.');
      expect(works(await wtc('containers', '-k'))).toMatch(
        new RegExp(
          '^NODE\\s+NAMESPACE\\s+ID\\s+IMAGE\\s+PID\\s+STATUS\\n' +
            `127\\.0\\.0\\.1\\s+k8s\\.io\\s+default/web\\s+${pause}\\s+[1-9]\\d*\\s+SANDBOX_READY\\n` +
            `127\\.0\\.0\\.1\\s+k8s\\.io\\s+└─ default/web:hello:${id.slice(0, 12)}\\s+docker\\.io/keel/hello:1\\s+[1-9]\\d*\\s+CONTAINER_RUNNING\\n$`,
        ),
      );
      // the container prints a line at its start; the log file has it once the CRI has copied it
      for (const deadline = Date.now() + 30_000; ; ) {
        const logs = works(await wtc('logs', '-k', 'default/web:hello'));
        if (/hello 0\n/.test(logs)) {
          expect(logs).toMatch(/^127\.0\.0\.1: \S+ stdout F hello 0\n/);
          break;
        }
        expect(Date.now() < deadline, `logs -k: ${logs}`).toBe(true);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      cri.close();
      await removeEverything(socket, ctr);
    }
  }, 120_000);

  it('bootstrap runs etcd; get staticpods then shows the control plane’s three pods, their files on disk', async () => {
    works(await wtc('bootstrap'));
    const pods = /kube-(?:apiserver|controller-manager|scheduler)/g;
    for (const deadline = Date.now() + 60_000; ; ) {
      const listed = works(await wtc('get', 'staticpods'));
      if (new Set(listed.match(pods)).size === 3) break;
      expect(Date.now() < deadline, `three static pods: ${listed}`).toBe(true);
      await new Promise((r) => setTimeout(r, 500));
    }
    // the image is the API server config's, the files are where this node keeps them
    const image = works(
      await wtc('get', 'apiserverconfig', 'kube-apiserver', '-o', 'jsonpath={.spec.image}'),
    ).trim();
    const api = works(await wtc('get', 'staticpods', 'kube-apiserver', '-o', 'yaml'));
    expect(api).toContain(`image: ${image}\n`);
    expect(api).toContain('talos.dev/secrets-version:');
    const secrets = join(wstate, 'system/secrets/kubernetes/kube-apiserver');
    expect(api).toContain(`path: ${secrets}\n`);
    expect(readdirSync(secrets)).toContain('apiserver.crt');
    expect(works(await wtc('get', 'secretstatuses'))).toMatch(/controlplane\s+SecretStatus\s+static-pods\s/);
    expect(works(await wtc('get', 'configstatuses'))).toMatch(/controlplane\s+ConfigStatus\s+static-pods\s/);
  }, 120_000);
});

describe('talosctl with a keelctl-generated config', () => {
  let kdir: string;
  let knode: NodeProcess;
  const ktc = (...args: string[]) =>
    talosctl(bin, ['-e', knode.address, '-n', '127.0.0.1', ...args], {
      talosconfig: join(kdir, 'talosconfig'),
      cwd: kdir,
    });

  beforeAll(async () => {
    kdir = mkdtempSync(join(tmpdir(), 'keel-talosctl-k-'));
    const keelctl = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'gen', 'config', 'keel-k', 'https://127.0.0.1:6443', '-o', kdir],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(keelctl.status, keelctl.stderr).toBe(0);
    // JSON patches need a single-document config (a talosctl rule): the v1alpha1 document alone
    const [v1alpha1] = readFileSync(join(kdir, 'controlplane.yaml'), 'utf8').split(/^---\n/m);
    writeFileSync(join(kdir, 'single.yaml'), v1alpha1!);
    knode = await spawnNode(tempStateDir(), await freePort());
    await knode.waitForLine(/server certificate fingerprint: /);
  }, 60_000);

  afterAll(() => rmSync(kdir, { recursive: true, force: true }));

  it('upstream validation accepts keelctl gen config output (strict, every mode)', async () => {
    for (const file of ['controlplane.yaml', 'worker.yaml'])
      for (const mode of ['metal', 'cloud', 'container']) {
        const r = await talosctl(
          bin,
          ['validate', '--config', join(kdir, file), '--mode', mode, '--strict'],
          {
            cwd: kdir,
          },
        );
        expect(r.code, r.output).toBe(0);
        expect(r.stdout).toContain(`is valid for ${mode} mode`);
      }
  });

  it('apply-config --insecure takes it; the talosconfig keelctl made works with talosctl', async () => {
    const r = await talosctl(
      bin,
      [
        'apply-config',
        '--insecure',
        '-n',
        knode.address,
        '-f',
        join(kdir, 'single.yaml'),
        ...(await onFreePrismPort()),
      ],
      {
        cwd: kdir,
      },
    );
    expect(r.code, r.output).toBe(0);
    await knode.waitForLine(/node running/);
    expect(works(await ktc('get', 'machinestatus'))).toMatch(/running\s+true/);
  });

  it('patch mc with a JSON patch', async () => {
    await patchesTo(
      ktc,
      '[{"op":"add","path":"/machine/sysctls","value":{"keel.tc":"json"}}]',
      'keel.tc: json',
    );
  });
});
