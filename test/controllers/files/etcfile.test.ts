// resolv.conf and hosts from the network statuses, written into a managed directory.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { etcFileController } from '../../../controllers/files/etcfile.js';
import { networkEtcFileController } from '../../../controllers/network/etcfile.js';
import { EtcFileSpec, EtcFileStatus, FILES_NAMESPACE } from '../../../resources/files/index.js';
import {
  HostnameStatus,
  NETWORK_NAMESPACE,
  NodeAddress,
  ResolverStatus,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { scratchDir } from '../../sys/child.js';
import { startRuntime } from '../secrets/env.js';

const eventually = async (check: () => void, ms = 5_000) => {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
};

describe('files.EtcFileController with network.EtcFileController', () => {
  it('writes resolv.conf and hosts atomically as the statuses change, and removes a file whose spec goes', async ({
    signal,
  }) => {
    const dir = scratchDir('keel-etc-');
    const env = startRuntime([networkEtcFileController(), etcFileController({ dir })]);
    onTestFinished(env.stop);
    await env.state.create(
      ResolverStatus.new(NETWORK_NAMESPACE, 'resolvers', {
        dnsServers: ['10.0.2.3'],
        searchDomains: ['lan'],
      }),
    );
    await env.state.create(
      HostnameStatus.new(NETWORK_NAMESPACE, 'hostname', { hostname: 'node1', domainname: 'lan' }),
    );
    await env.state.create(NodeAddress.new(NETWORK_NAMESPACE, 'default', { addresses: ['10.0.2.15/24'] }));
    await assertResource(env.state, EtcFileStatus, 'resolv.conf', () => {}, { signal });
    await eventually(() =>
      expect(readFileSync(join(dir, 'resolv.conf'), 'utf8')).toBe('nameserver 10.0.2.3\n\nsearch lan\n'),
    );
    await eventually(() =>
      expect(readFileSync(join(dir, 'hosts'), 'utf8')).toMatch(/^10\.0\.2\.15 node1\.lan node1$/m),
    );
    expect(statSync(join(dir, 'hosts')).mode & 0o777).toBe(0o644);

    await env.state.modify(ResolverStatus.new(NETWORK_NAMESPACE, 'resolvers'), (r) => {
      r.spec = { dnsServers: ['1.1.1.1', '8.8.8.8'], searchDomains: [] };
    });
    await eventually(() =>
      expect(readFileSync(join(dir, 'resolv.conf'), 'utf8')).toBe('nameserver 1.1.1.1\nnameserver 8.8.8.8\n'),
    );
    const status = await env.state.get(EtcFileStatus.pointer('resolv.conf'));
    const spec = await env.state.get(EtcFileSpec.pointer('resolv.conf'));
    await eventually(async () => expect(status.metadata.version).toBeDefined());
    expect(spec.metadata.finalizers.has('files.EtcFileController')).toBe(true);

    // a spec made by someone else, then torn down: the file goes, then the finalizer
    await env.state.create(
      EtcFileSpec.new(FILES_NAMESPACE, 'extra', {
        contents: new TextEncoder().encode('x\n'),
        mode: 0o600,
        selinuxLabel: '',
      }),
    );
    await eventually(() => expect(existsSync(join(dir, 'extra'))).toBe(true));
    await env.state.teardown(EtcFileSpec.pointer('extra'));
    await env.state.watchFor(EtcFileSpec.pointer('extra'), { signal, finalizersEmpty: true });
    expect(existsSync(join(dir, 'extra'))).toBe(false);
    await env.state.destroy(EtcFileSpec.pointer('extra'));
    await assertNoResource(env.state, EtcFileStatus, 'extra', { signal });
  });

  it("writes the pods' resolv.conf the kubelet names, from the same resolvers, and follows them", async () => {
    const dir = scratchDir('keel-pod-resolv-');
    const podResolvConf = join(dir, 'system/resolved/resolv.conf');
    const env = startRuntime([networkEtcFileController({ podResolvConf })]);
    onTestFinished(env.stop);
    await env.state.create(
      ResolverStatus.new(NETWORK_NAMESPACE, 'resolvers', { dnsServers: ['10.0.2.3'], searchDomains: [] }),
    );
    await eventually(() => expect(readFileSync(podResolvConf, 'utf8')).toBe('nameserver 10.0.2.3\n'));
    expect(statSync(podResolvConf).mode & 0o777).toBe(0o644);
    await env.state.modify(ResolverStatus.new(NETWORK_NAMESPACE, 'resolvers'), (r) => {
      r.spec = { dnsServers: ['1.1.1.1'], searchDomains: ['lan'] };
    });
    await eventually(() =>
      expect(readFileSync(podResolvConf, 'utf8')).toBe('nameserver 1.1.1.1\n\nsearch lan\n'),
    );
  });
});
