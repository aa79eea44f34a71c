// The stock talosctl's `apply-config --insecure` against a container-mode node in maintenance mode: a
// Kubernetes config with a bad version, overlapping subnets or a dashed flag name is refused, and what
// talosctl prints names each field and its problem. The node stays in maintenance mode, waiting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, freePort, type NodeProcess, spawnNode, tempStateDir } from '../../machined/node/harness.js';
import { killTalosctls, talosctl, talosctlPath } from './talosctl.js';

let bin: string;
let dir: string;
let node: NodeProcess;

/** apply sends talosctl's own generated control plane config, patched, to the node in maintenance mode */
const apply = (patch: object | undefined, ...flags: string[]) =>
  talosctl(
    bin,
    [
      'apply-config',
      '--insecure',
      '-n',
      node.address,
      '-f',
      join(dir, 'controlplane.yaml'),
      ...(patch ? ['-p', JSON.stringify(patch)] : []),
      ...flags,
    ],
    { cwd: dir },
  );

beforeAll(async () => {
  bin = talosctlPath();
  dir = mkdtempSync(join(tmpdir(), 'keel-refusals-'));
  node = await spawnNode(tempStateDir(), await freePort());
  await node.waitForLine(/server certificate fingerprint: /);
  const gen = await talosctl(bin, ['gen', 'config', 'keel-refusals', 'https://127.0.0.1:6443', '-o', dir], {
    cwd: dir,
  });
  expect(gen.code, gen.output).toBe(0);
}, 30 * 60_000);

afterAll(async () => {
  killTalosctls();
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

describe('talosctl apply-config --insecure refuses a bad Kubernetes config', () => {
  it('names every field at fault and its problem', async () => {
    const r = await apply({
      cluster: {
        apiServer: {
          image: 'registry.k8s.io/kube-apiserver:v1.x',
          extraArgs: { '--audit-log-maxage': '30' },
        },
        network: { podSubnets: ['10.244.0.0/16'], serviceSubnets: ['10.244.128.0/20'] },
      },
    });
    expect(r.timedOut, r.output).toBe(false);
    expect(r.code, r.output).not.toBe(0);
    expect(r.stderr).toContain('code = InvalidArgument');
    expect(r.stderr).toContain('configuration validation failed: 3 errors occurred');
    expect(r.stderr).toMatch(
      /v1alpha1 cluster\.apiServer\.image \(line \d+\): kube-apiserver image is not valid: failed to parse Kubernetes version from image reference "registry\.k8s\.io\/kube-apiserver:v1\.x": tag "v1\.x" is not a Kubernetes version/,
    );
    expect(r.stderr).toMatch(
      /v1alpha1 cluster\.network\.serviceSubnets\[0\] \(line \d+\): service subnet "10\.244\.128\.0\/20" overlaps pod subnet "10\.244\.0\.0\/16" \(cluster\.network\.podSubnets\[0\]\)/,
    );
    expect(r.stderr).toMatch(
      /v1alpha1 cluster\.apiServer\.extraArgs\.--audit-log-maxage \(line \d+\): extraArgs key "--audit-log-maxage" is not a flag name/,
    );
  });

  it('names a kubelet newer than the API server', async () => {
    const r = await apply({
      machine: { kubelet: { image: 'ghcr.io/siderolabs/kubelet:v1.36.0' } },
      cluster: {
        apiServer: { image: 'registry.k8s.io/kube-apiserver:v1.35.0' },
        controllerManager: { image: 'registry.k8s.io/kube-controller-manager:v1.35.0' },
        scheduler: { image: 'registry.k8s.io/kube-scheduler:v1.35.0' },
        proxy: { image: 'registry.k8s.io/kube-proxy:v1.35.0' },
      },
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.stderr).toMatch(
      /v1alpha1 machine\.kubelet\.image \(line \d+\): kubelet v1\.36\.0 is newer than kube-apiserver v1\.35\.0 \(cluster\.apiServer\.image\)/,
    );
  });

  it('leaves the node in maintenance mode, where the config without the mistakes passes', async () => {
    const r = await apply(undefined, '--dry-run');
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('Dry run summary');
    expect(node.lines.join('\n')).not.toContain('leaving maintenance mode');
  });
});
