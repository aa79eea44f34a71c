// The stock `talosctl health` (its default, server-side check) against container-mode control planes, each
// in its own network namespace on one bridge so that it has an address of its own and its etcd the usual
// ports: bootstrapped with etcd but no kubelet, a node passes the etcd, apid, size and diagnostics checks
// and then waits for "kubelet to be healthy" until --wait-timeout, exiting non-zero; with a second control
// plane joined, the node running the check reads the other one through its API. A node in maintenance
// mode refuses the check, saying why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callStream, errorOf, insecure, serviceClient } from '../../api/fixtures.js';
import { cleanup, freePort, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { enterNetns } from '../../sys/netns.js';
import {
  addBridge,
  componentsLayer,
  eventually,
  type NetnsNode,
  removeNetns,
  startNode as startNetnsNode,
  stopNodes,
  waitForLine,
} from '../netns-nodes.js';
import { killTalosctls, type Run, talosctl, talosctlPath, works } from './talosctl.js';

const SUBNET = '10.78.0';

let work: string;
let bin: string;
let components: string;
let talosconfig: string;
const nodes = new Map<string, NetnsNode>();

/** tc runs talosctl at one node, as a user would: that node as endpoint and target. */
const tc = (n: string, ...args: string[]) => {
  const at = nodes.get(n)!.ip;
  return talosctl(bin, ['-e', at, '-n', at, ...args], { talosconfig, cwd: work, timeoutMs: 120_000 });
};

/** startNode makes a namespace on the bridge and runs a control plane in it. */
function startNode(name: string, host: number): NetnsNode {
  const node = startNetnsNode({
    name,
    subnet: SUBNET,
    host,
    bridge: 'khbr0',
    veth: `kh${process.pid % 10000}${host}`,
    work,
    config: join(work, 'controlplane.yaml'),
    components,
  });
  nodes.set(name, node);
  return node;
}

/** The lines the checks that can pass without Kubernetes end with. */
const PASSED = [
  'waiting for etcd to be healthy: OK',
  'waiting for etcd members to be consistent across nodes: OK',
  'waiting for etcd members to be control plane nodes: OK',
  'waiting for apid to be ready: OK',
  'waiting for all nodes memory sizes: OK',
  'waiting for all nodes disk sizes: OK',
  'waiting for no diagnostics: OK',
];

/** progress is what `talosctl health` printed on stderr, one line per progress message (multi-line kept). */
const progress = (r: Run) => r.stderr.split(/\n(?=waiting for |discovered nodes|healthcheck error|error)/);

// this file's own namespace (the bridge's), made at collection so its teardown is registered
enterNetns();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'keel-health-'));
  bin = talosctlPath();
  components = componentsLayer(work);
  addBridge('khbr0', SUBNET);
  works(
    await talosctl(bin, ['gen', 'config', 'keel-health', `https://${SUBNET}.1:6443`, '-o', work], {
      cwd: work,
    }),
  );
  talosconfig = join(work, 'talosconfig');
  const n1 = startNode('n1', 1);
  await waitForLine(n1, /api: serving with mutual TLS/);
}, 20 * 60_000);

afterAll(async () => {
  killTalosctls();
  await cleanup();
  // nodes first, gracefully (they stop their etcd); anything left is killed
  await stopNodes(nodes.values());
  removeNetns(nodes.values());
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('talosctl health against container control planes with etcd and no kubelet', () => {
  it(
    'one node: passes the checks up to the kubelet, waits for it until --wait-timeout, and fails',
    async () => {
      const n1 = nodes.get('n1')!;
      await waitForLine(n1, /talosctl bootstrap/);
      works(await tc('n1', 'bootstrap'));
      await eventually('etcd healthy', 180_000, async () =>
        expect(works(await tc('n1', 'service', 'etcd'))).toMatch(/HEALTH\s+OK/),
      );
      const started = Date.now();
      const r = await tc('n1', 'health', '--control-plane-nodes', n1.ip, '--wait-timeout', '20s');
      expect(r.timedOut, r.output).toBe(false);
      expect(r.code, r.output).not.toBe(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(20_000);
      const lines = progress(r);
      expect(lines[0], r.output).toBe(`discovered nodes: ["${n1.ip}"]`);
      for (const l of PASSED) expect(lines, r.output).toContain(l);
      // the first check about Kubernetes is the one it waited for, named with what it found
      expect(lines, r.output).toContain(
        'waiting for kubelet to be healthy: expected a response with 1 node(s), got 0',
      );
      expect(r.output).not.toContain('waiting for all nodes to finish boot sequence');
      expect(r.stderr.trim().split('\n').at(-1)).toContain(
        'healthcheck error: rpc error: code = DeadlineExceeded desc = context deadline exceeded',
      );
    },
    10 * 60_000,
  );

  it(
    'two nodes: reads the other control plane through its API, and waits for both kubelets',
    async () => {
      const n1 = nodes.get('n1')!;
      const n2 = startNode('n2', 2);
      await waitForLine(n2, /api: serving with mutual TLS/);
      await eventually('two voting members, etcd healthy on both', 300_000, async () => {
        const members = works(await tc('n1', 'etcd', 'members'));
        expect(members.match(/\sfalse\s*$/gm), members).toHaveLength(2);
        for (const n of ['n1', 'n2']) expect(works(await tc(n, 'service', 'etcd'))).toMatch(/HEALTH\s+OK/);
      });
      const r = await tc(
        'n1',
        'health',
        '--control-plane-nodes',
        `${n1.ip},${n2.ip}`,
        '--wait-timeout',
        '20s',
      );
      expect(r.code, r.output).not.toBe(0);
      const lines = progress(r);
      expect(lines[0], r.output).toBe(`discovered nodes: ["${n1.ip}" "${n2.ip}"]`);
      for (const l of PASSED) expect(lines, r.output).toContain(l);
      expect(lines, r.output).toContain(
        'waiting for kubelet to be healthy: expected a response with 2 node(s), got 0',
      );
      // a control plane left out of the request is seen among the members
      const partial = await tc('n1', 'health', '--control-plane-nodes', n1.ip, '--wait-timeout', '8s');
      expect(partial.code, partial.output).not.toBe(0);
      const members = [`"${n1.ip}" "${n2.ip}"`, `"${n2.ip}" "${n1.ip}"`].map(
        (ips) =>
          `waiting for etcd members to be control plane nodes: etcd member ips [${ips}] are not subset of control plane node ips ["${n1.ip}"]`,
      );
      expect(
        progress(partial).some((l) => members.includes(l)),
        partial.output,
      ).toBe(true);
    },
    10 * 60_000,
  );
});

describe('HealthCheck on a node in maintenance mode', () => {
  it('is refused as upstream refuses it: no machine type, no health check', async () => {
    const node = await spawnNode(tempStateDir(), await freePort());
    await node.waitForLine(/server certificate fingerprint: /);
    // a maintenance client (talosctl --insecure's TLS); `talosctl health` has no such mode
    const cluster = serviceClient('cluster.ClusterService', node.address, insecure());
    try {
      const err = await errorOf(
        callStream(cluster, 'HealthCheck', { wait_timeout: { seconds: '5', nanos: 0 } }),
      );
      expect(err.code).toBe(status.UNIMPLEMENTED);
      expect(err.details).toBe('machine type is not set, cannot use cluster health check API');
    } finally {
      cluster.close();
    }
  }, 120_000);
});
