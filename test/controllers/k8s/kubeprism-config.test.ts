// KubePrism's config: loopback and the configured port over the endpoints found, only while the feature is
// on and the endpoints exist, on the real runtime with the endpoints controller before it.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  KubePrismConfigController,
  kubePrismConfigOf,
  kubePrismEnabled,
} from '../../../controllers/k8s/kubeprism-config.js';
import { KubePrismEndpointsController } from '../../../controllers/k8s/kubeprism-endpoints.js';
import { MachineConfig } from '../../../resources/config/index.js';
import {
  KUBEPRISM_CONFIG_ID,
  KUBEPRISM_ENDPOINTS_ID,
  KubePrismConfig,
  KubePrismEndpoints,
} from '../../../resources/k8s/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

const prism = (lines: string) => loadPatch(`machine:\n  features:\n    kubePrism:\n${lines}`);

describe('kubePrismConfigOf', () => {
  it('listens on 127.0.0.1 at the configured port, 7445 when unset or 0', async () => {
    const { worker } = await mintCluster();
    const endpoints = [{ host: 'cp.example.com', port: 6443 }];
    expect(kubePrismEnabled(worker)).toBe(true); // talosctl's and keelctl's generated configs run it
    expect(kubePrismConfigOf(worker, endpoints)).toEqual({ host: '127.0.0.1', port: 7445, endpoints });
    const moved = applyPatches(worker, [prism('      port: 7446\n')]);
    expect(kubePrismConfigOf(moved, endpoints).port).toBe(7446);
    const zero = applyPatches(worker, [prism('      port: 0\n')]);
    expect(kubePrismConfigOf(zero, endpoints).port).toBe(7445);
    expect(kubePrismEnabled(applyPatches(worker, [prism('      enabled: false\n')]))).toBe(false);
  });
});

describe('k8s.KubePrismConfigController', () => {
  it('waits for the endpoints, and wakes when they come', async ({ signal }) => {
    const env = startRuntime([KubePrismConfigController]);
    onTestFinished(env.stop);
    const { worker } = await mintCluster();
    await env.state.create(machineConfig(worker));
    expect(await env.state.list({ namespace: 'k8s', type: KubePrismConfig.type })).toEqual([]);
    const endpoints = [{ host: '10.5.0.2', port: 6443 }];
    await env.state.create(KubePrismEndpoints.new('k8s', KUBEPRISM_ENDPOINTS_ID, { endpoints }));
    await assertResource(
      env.state,
      KubePrismConfig,
      KUBEPRISM_CONFIG_ID,
      (r) => expect(r.spec).toEqual({ host: '127.0.0.1', port: 7445, endpoints }),
      { signal },
    );
  });

  it('publishes the config while KubePrism is enabled, following port and endpoints', async ({ signal }) => {
    const env = startRuntime([KubePrismEndpointsController, KubePrismConfigController]);
    onTestFinished(env.stop);
    const { controlplane, worker } = await mintCluster();
    const use = (cfg: typeof worker) =>
      env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
        r.spec = machineConfig(cfg).spec;
      });
    await env.state.create(machineConfig(controlplane));
    const published = (port: number, endpoints: unknown) =>
      assertResource(
        env.state,
        KubePrismConfig,
        KUBEPRISM_CONFIG_ID,
        (r) => {
          expect(r.metadata.namespace).toBe('k8s');
          expect(r.metadata.owner).toBe('k8s.KubePrismConfigController');
          expect(r.spec).toEqual({ host: '127.0.0.1', port, endpoints });
        },
        { signal },
      );
    await published(7445, [
      { host: 'cp.example.com', port: 6443 },
      { host: 'localhost', port: 6443 },
    ]);
    await use(applyPatches(worker, [prism('      port: 7450\n')]));
    await published(7450, [{ host: 'cp.example.com', port: 6443 }]);
    await use(applyPatches(worker, [prism('      enabled: false\n')]));
    await assertNoResource(env.state, KubePrismConfig, KUBEPRISM_CONFIG_ID, { signal });
  });
});
