// KubePrism's endpoints from real generated configs: the cluster endpoint as Go's URL reads it, the local
// API server on a control plane only, and the controller following the config.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  endpointOfURL,
  KubePrismEndpointsController,
  kubePrismEndpointsOf,
} from '../../../controllers/k8s/kubeprism-endpoints.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { KUBEPRISM_ENDPOINTS_ID, KubePrismEndpoints } from '../../../resources/k8s/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

describe('endpointOfURL', () => {
  it.each([
    ['https://cp.example.com:6443', 'cp.example.com', 6443],
    ['https://10.5.0.2:443', '10.5.0.2', 443],
    ['https://[fd00::1]:6443', 'fd00::1', 6443],
    ['https://[fd00::1]', 'fd00::1', 443],
    ['https://cp.example.com', 'cp.example.com', 443],
    ['https://cp.example.com/', 'cp.example.com', 443],
    ['http://cp.example.com:80', 'cp.example.com', 80], // as written, where a WHATWG URL drops it
    ['https://admin@cp.example.com:7443/path', 'cp.example.com', 7443],
    ['https://cp.example.com:', 'cp.example.com', 443],
    ['https://cp.example.com:http', 'cp.example.com', 443],
    ['https://cp.example.com:99999999999', 'cp.example.com', 443],
  ])('%s → %s port %d', (url, host, port) => expect(endpointOfURL(url)).toEqual({ host, port }));

  it('takes nothing from what is no URL', () => {
    expect(endpointOfURL('')).toBeUndefined();
    expect(endpointOfURL('cp.example.com:6443')).toBeUndefined();
  });
});

describe('kubePrismEndpointsOf', () => {
  it('lists the cluster endpoint, then on a control plane the local API server', async () => {
    const { controlplane, worker } = await mintCluster();
    expect(kubePrismEndpointsOf(controlplane)).toEqual([
      { host: 'cp.example.com', port: 6443 },
      { host: 'localhost', port: 6443 },
    ]);
    expect(kubePrismEndpointsOf(worker)).toEqual([{ host: 'cp.example.com', port: 6443 }]);
  });

  it('follows cluster.controlPlane.localAPIServerPort', async () => {
    const { controlplane } = await mintCluster();
    const cfg = applyPatches(controlplane, [
      loadPatch('cluster:\n  controlPlane:\n    endpoint: https://[fd00::9]\n    localAPIServerPort: 7443\n'),
    ]);
    expect(kubePrismEndpointsOf(cfg)).toEqual([
      { host: 'fd00::9', port: 443 },
      { host: 'localhost', port: 7443 },
    ]);
  });
});

describe('k8s.KubePrismEndpointsController', () => {
  it('publishes the endpoints from the active config and follows it', async ({ signal }) => {
    const env = startRuntime([KubePrismEndpointsController]);
    onTestFinished(env.stop);
    const { controlplane, worker } = await mintCluster();
    await env.state.create(machineConfig(controlplane));
    await assertResource(
      env.state,
      KubePrismEndpoints,
      KUBEPRISM_ENDPOINTS_ID,
      (r) => {
        expect(r.metadata.namespace).toBe('k8s');
        expect(r.metadata.owner).toBe('k8s.KubePrismEndpointsController');
        expect(r.spec.endpoints).toEqual([
          { host: 'cp.example.com', port: 6443 },
          { host: 'localhost', port: 6443 },
        ]);
      },
      { signal },
    );
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(worker).spec;
    });
    await assertResource(
      env.state,
      KubePrismEndpoints,
      KUBEPRISM_ENDPOINTS_ID,
      (r) => expect(r.spec.endpoints).toEqual([{ host: 'cp.example.com', port: 6443 }]),
      { signal },
    );
    await env.state.destroy(MachineConfig.pointer('v1alpha1', 'config'));
    await assertNoResource(env.state, KubePrismEndpoints, KUBEPRISM_ENDPOINTS_ID, { signal });
  });
});
