// The node's Kubernetes name: the pure conversion as upstream's, and the controller from a real config and
// the hostname status the network side publishes.
import { describe, expect, it, onTestFinished } from 'vitest';
import { NodenameError, nodenameFromHostname } from '../../../controllers/k8s/internal/nodename.js';
import { NodenameController } from '../../../controllers/k8s/nodename.js';
import { MachineConfig } from '../../../resources/config/index.js';
import { NODENAME_ID, Nodename } from '../../../resources/k8s/index.js';
import { HostnameStatus } from '../../../resources/network/index.js';
import { applyPatches, loadPatch } from '../../../src/config/patch/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { hostname, machineConfig, mintCluster, startRuntime } from '../secrets/env.js';

describe('nodenameFromHostname', () => {
  it.each([
    ['foo', 'foo'],
    ['Node-1.Example.COM', 'node-1.example.com'],
    ['my_host', 'my-host'],
    ['-.-abc!@#def.-', 'abcdef'],
    ['über-node', 'ber-node'],
  ])('%s → %s', (from, to) => expect(nodenameFromHostname(from)).toBe(to));

  it('refuses a hostname with nothing left, naming it', () => {
    expect(() => nodenameFromHostname('_.!')).toThrow(NodenameError);
    expect(() => nodenameFromHostname('_.!')).toThrow(
      'could not convert hostname "_.!" to a valid Kubernetes Node name',
    );
  });
});

describe('k8s.NodenameController', () => {
  it('names the node from its hostname, its FQDN when asked, and follows a rename', async ({ signal }) => {
    const env = startRuntime([NodenameController]);
    onTestFinished(env.stop);
    const { controlplane } = await mintCluster();
    await env.state.create(hostname('CP_1', 'example.org'));
    await env.state.create(machineConfig(controlplane));
    const named = (nodename: string, skip = false) =>
      assertResource(
        env.state,
        Nodename,
        NODENAME_ID,
        (r) => {
          expect(r.spec.nodename).toBe(nodename);
          expect(r.spec.skipNodeRegistration).toBe(skip);
          expect(r.spec.hostnameVersion).toMatch(/^\d+$/);
        },
        { signal },
      );
    await named('cp-1');

    const patched = applyPatches(controlplane, [
      loadPatch('machine:\n  kubelet:\n    registerWithFQDN: true\n    skipNodeRegistration: true\n'),
    ]);
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = machineConfig(patched).spec;
    });
    await named('cp-1.example.org', true);

    await env.state.modify(HostnameStatus.new('network', 'hostname'), (r) => {
      r.spec = { hostname: 'cp-2', domainname: '' };
    });
    await named('cp-2', true);
  });
});
