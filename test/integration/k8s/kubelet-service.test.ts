// The real kubelet (the Kubernetes layer's) started from the ServiceSpec Keel derives, with a container
// node's paths under a temporary state directory and a real containerd as its CRI: it must take its
// arguments and the KubeletConfiguration, trust the CA bundle, reach the CRI, and serve its healthz, with
// the API server it bootstraps against absent. It runs in a network namespace of its own (its ports are
// fixed) and a PID namespace of its own (it moves the processes it can see into its system cgroups).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletPathsUnder } from '../../../controllers/k8s/kubelet-paths.js';
import type { ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { newCertificateAuthority } from '../../../src/pki/index.js';
import { startContainerd, type TestContainerd } from '../../containerd/fixtures.js';
import { type Peer, peerNetns } from '../../sys/netns.js';
import { kubeletService, type RunningKubelet, startKubelet } from './kubelet.js';

let containerd: TestContainerd;
let work: string;
let peer: Peer;
let kubelet: RunningKubelet;
let spec: ServiceSpecSpec;

beforeAll(async () => {
  expect(process.getuid?.(), 'the kubelet needs root').toBe(0);
  work = mkdtempSync(join(tmpdir(), 'keel-kubelet-'));
  containerd = await startContainerd();
  const paths = kubeletPathsUnder(join(work, 'state'), containerd.socket);
  const ca = await newCertificateAuthority({ keyType: 'ecdsa-p256', organizations: ['kubernetes'] });
  spec = kubeletService({
    work,
    paths,
    nodename: 'kubelet-test',
    controlPlane: false,
    ca: ca.crt,
    config: { staticPodListURL: 'http://127.0.0.1:1' },
  });
  peer = peerNetns('kubelet');
  peer.run('ip', 'link', 'set', 'lo', 'up');
  kubelet = startKubelet(spec, { netns: peer, logChars: 20_000 });
}, 120_000);

afterAll(async () => {
  await kubelet?.stop();
  await containerd?.stop();
  await kubelet?.removeCgroups();
  if (work) rmSync(work, { recursive: true, force: true });
}, 60_000);

describe('the kubelet from its ServiceSpec', () => {
  it('parses its flags and config, reaches the CRI, and serves healthz without an API server', async () => {
    const health = spec.health.kind === 'http' ? spec.health.url : '';
    for (const deadline = Date.now() + 90_000; ; ) {
      expect(kubelet.process.exitCode, `the kubelet exited:\n${kubelet.log()}`).toBeNull();
      let body = '';
      try {
        body = peer.run('curl', '-sf', '--max-time', '2', health);
      } catch {}
      if (body === 'ok') break;
      expect(Date.now() < deadline, `healthz never answered ok:\n${kubelet.log()}`).toBe(true);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }, 120_000);
});
