// The merge controllers on a real runtime: network-config layers in, one spec per id in network, and
// the teardown protocol when a spec is no longer wanted.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  AddressMergeController,
  HostnameMergeController,
  LinkMergeController,
  ResolverMergeController,
} from '../../../controllers/network/index.js';
import {
  AddressSpec,
  addressSpecZero,
  ConfigLayer,
  Family,
  HostnameSpec,
  LinkSpec,
  linkSpecZero,
  ResolverSpec,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from './env.js';

const NC = 'network-config';

describe('merge controllers', () => {
  it('are named after their type, as upstream', () => {
    expect(LinkMergeController.name).toBe('LinkMergeControllers.net.talos.dev');
    expect(AddressMergeController.name).toBe('AddressMergeControllers.net.talos.dev');
  });

  it('publish the merged hostname and follow the layers as they change', async () => {
    const env = startRuntime([HostnameMergeController]);
    onTestFinished(env.stop);
    const h = (hostname: string, configLayer: ConfigLayer) => ({ hostname, domainname: '', configLayer });
    await env.state.create(HostnameSpec.new(NC, 'default/hostname', h('talos-abc-def', ConfigLayer.Default)));
    await env.state.create(
      HostnameSpec.new(NC, 'configuration/hostname', h('node1', ConfigLayer.MachineConfiguration)),
    );
    await assertResource(env.state, HostnameSpec, 'hostname', (r) => expect(r.spec.hostname).toBe('node1'));
    await env.state.destroy(HostnameSpec.pointer('configuration/hostname', NC));
    await assertResource(env.state, HostnameSpec, 'hostname', (r) =>
      expect(r.spec.hostname).toBe('talos-abc-def'),
    );
  });

  it('merge a link across layers', async () => {
    const env = startRuntime([LinkMergeController]);
    onTestFinished(env.stop);
    const def = linkSpecZero();
    Object.assign(def, { name: 'eth0', up: true });
    const cfg = linkSpecZero();
    Object.assign(cfg, { name: 'eth0', mtu: 9000, configLayer: ConfigLayer.MachineConfiguration });
    await env.state.create(LinkSpec.new(NC, 'default/eth0', def));
    await env.state.create(LinkSpec.new(NC, 'configuration/eth0', cfg));
    await assertResource(env.state, LinkSpec, 'eth0', (r) =>
      expect(r.spec).toMatchObject({ up: true, mtu: 9000, configLayer: ConfigLayer.MachineConfiguration }),
    );
  });

  it('destroys an unwanted spec only after its finalizers are released', async () => {
    const env = startRuntime([AddressMergeController]);
    onTestFinished(env.stop);
    const spec = { ...addressSpecZero(), address: '10.0.0.2/24', linkName: 'eth0', family: Family.Inet4 };
    await env.state.create(AddressSpec.new(NC, 'configuration/eth0/10.0.0.2/24', spec));
    const out = await assertResource(env.state, AddressSpec, 'eth0/10.0.0.2/24', () => {});
    expect(out.metadata.owner).toBe('AddressMergeControllers.net.talos.dev');
    // the spec controller's hold while the kernel still has the address
    await env.state.addFinalizer(out.metadata, 'AddressSpecController');
    await env.state.destroy(AddressSpec.pointer('configuration/eth0/10.0.0.2/24', NC));
    await assertResource(env.state, AddressSpec, 'eth0/10.0.0.2/24', (r) =>
      expect(r.metadata.phase).toBe('tearingDown'),
    );
    await env.state.removeFinalizer(out.metadata, 'AddressSpecController');
    await assertNoResource(env.state, AddressSpec, 'eth0/10.0.0.2/24');
  });

  it('rewrites a spec wanted again once its teardown has finished', async () => {
    const env = startRuntime([ResolverMergeController]);
    onTestFinished(env.stop);
    const r = (dnsServers: string[]) => ({ dnsServers, configLayer: ConfigLayer.Default, searchDomains: [] });
    await env.state.create(ResolverSpec.new(NC, 'default/resolvers', r(['1.1.1.1'])));
    const out = await assertResource(env.state, ResolverSpec, 'resolvers', () => {});
    await env.state.addFinalizer(out.metadata, 'ResolverSpecController');
    await env.state.destroy(ResolverSpec.pointer('default/resolvers', NC));
    await assertResource(env.state, ResolverSpec, 'resolvers', (x) =>
      expect(x.metadata.phase).toBe('tearingDown'),
    );
    await env.state.create(ResolverSpec.new(NC, 'default/resolvers', r(['8.8.8.8'])));
    await env.state.removeFinalizer(out.metadata, 'ResolverSpecController');
    await assertResource(env.state, ResolverSpec, 'resolvers', (x) => {
      expect(x.metadata.phase).toBe('running');
      expect(x.spec.dnsServers).toEqual(['8.8.8.8']);
    });
  });
});
