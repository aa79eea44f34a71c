// The static pod server over real HTTP on loopback: the PodList the kubelet reads, following the
// StaticPod resources as they come, change and go.
import { describe, expect, it, onTestFinished } from 'vitest';
import YAML from 'yaml';
import { StaticPodServerController } from '../../../controllers/k8s/static-pod-server.js';
import {
  K8S_NAMESPACE,
  STATIC_POD_SERVER_STATUS_ID,
  StaticPod,
  StaticPodServerStatus,
} from '../../../resources/k8s/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

const pod = (name: string, image: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'kube-system' },
  spec: { hostNetwork: true, containers: [{ name, image }] },
});

describe('k8s.StaticPodServerController', () => {
  it('serves the static pods as one YAML PodList on loopback and follows them', async ({ signal }) => {
    const env = startRuntime([StaticPodServerController]);
    onTestFinished(env.stop);
    let url = '';
    await assertResource(env.state, StaticPodServerStatus, STATIC_POD_SERVER_STATUS_ID, (r) => {
      expect(r.spec.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      url = r.spec.url;
    });
    const served = async () => {
      const res = await fetch(`${url}/any/path`, { signal });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.indexOf('kind: PodList')).toBe(0);
      return YAML.parse(text) as { apiVersion: string; items: ReturnType<typeof pod>[] };
    };
    const names = async (want: string[]) =>
      expect
        .poll(
          async () => (await served()).items.map((p) => `${p.metadata.name}=${p.spec.containers[0]!.image}`),
          {
            timeout: 5_000,
          },
        )
        .toEqual(want);

    await names([]);
    await env.state.create(
      StaticPod.new(K8S_NAMESPACE, 'kube-apiserver', { pod: pod('kube-apiserver', 'a:1') }),
    );
    await env.state.create(
      StaticPod.new(K8S_NAMESPACE, 'kube-scheduler', { pod: pod('kube-scheduler', 's:1') }),
    );
    await names(['kube-apiserver=a:1', 'kube-scheduler=s:1']);
    expect((await served()).apiVersion).toBe('v1');

    await env.state.modify(StaticPod.new(K8S_NAMESPACE, 'kube-apiserver'), (r) => {
      r.spec = { pod: pod('kube-apiserver', 'a:2') };
    });
    await names(['kube-apiserver=a:2', 'kube-scheduler=s:1']);
    await env.state.destroy(StaticPod.pointer('kube-scheduler', K8S_NAMESPACE));
    await names(['kube-apiserver=a:2']);
  });

  it('stops listening when the controller stops', async () => {
    const env = startRuntime([StaticPodServerController]);
    let url = '';
    await assertResource(env.state, StaticPodServerStatus, STATIC_POD_SERVER_STATUS_ID, (r) => {
      url = r.spec.url;
    });
    await expect.poll(async () => (await fetch(url)).status, { timeout: 5_000 }).toBe(200);
    await env.stop();
    await expect(fetch(url)).rejects.toThrow();
  });
});
