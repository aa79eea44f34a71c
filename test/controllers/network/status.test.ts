// The resolver and time server mirrors and the network readiness flags.
import { describe, expect, it, onTestFinished } from 'vitest';
import { ResolverSpecController } from '../../../controllers/network/resolver-spec.js';
import { networkStatusController } from '../../../controllers/network/status.js';
import { TimeServerSpecController } from '../../../controllers/network/timeserver-spec.js';
import { EtcFileStatus, FILES_NAMESPACE } from '../../../resources/files/index.js';
import {
  ConfigLayer,
  HostnameStatus,
  NETWORK_NAMESPACE,
  NetworkStatus,
  NodeAddress,
  ResolverSpec,
  ResolverStatus,
  RouteStatus,
  TimeServerSpec,
  TimeServerStatus,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../secrets/env.js';

describe('network spec mirrors and status', () => {
  it('mirrors resolvers and time servers, and drops a status with its spec', async ({ signal }) => {
    const env = startRuntime([ResolverSpecController, TimeServerSpecController]);
    onTestFinished(env.stop);
    await env.state.create(
      ResolverSpec.new(NETWORK_NAMESPACE, 'resolvers', {
        dnsServers: ['10.0.2.3'],
        searchDomains: ['lan'],
        configLayer: ConfigLayer.Operator,
      }),
    );
    await env.state.create(
      TimeServerSpec.new(NETWORK_NAMESPACE, 'timeservers', {
        ntpServers: ['time.cloudflare.com'],
        configLayer: ConfigLayer.Default,
      }),
    );
    await assertResource(env.state, ResolverStatus, 'resolvers', (r) =>
      expect(r.spec).toEqual({ dnsServers: ['10.0.2.3'], searchDomains: ['lan'] }),
    );
    await assertResource(env.state, TimeServerStatus, 'timeservers', (r) =>
      expect(r.spec.ntpServers).toEqual(['time.cloudflare.com']),
    );
    await env.state.teardown(ResolverSpec.pointer('resolvers'));
    await env.state.watchFor(ResolverSpec.pointer('resolvers'), { signal, finalizersEmpty: true });
    await assertNoResource(env.state, ResolverStatus, 'resolvers', { signal });
  });

  it('reports each readiness flag as its input appears', async () => {
    const env = startRuntime([networkStatusController()]);
    onTestFinished(env.stop);
    const flags = (want: Record<string, boolean>) =>
      assertResource(env.state, NetworkStatus, 'status', (r) => expect(r.spec).toEqual(want));
    await flags({
      addressReady: false,
      connectivityReady: false,
      hostnameReady: false,
      etcFilesReady: false,
    });
    await env.state.create(NodeAddress.new(NETWORK_NAMESPACE, 'current', { addresses: ['10.0.2.15/24'] }));
    await env.state.create(
      RouteStatus.new(NETWORK_NAMESPACE, 'inet4/10.0.2.2//1024', {
        ...RouteStatus.codec.empty(),
        gateway: '10.0.2.2',
      }),
    );
    await env.state.create(
      HostnameStatus.new(NETWORK_NAMESPACE, 'hostname', { hostname: 'n', domainname: '' }),
    );
    await env.state.create(EtcFileStatus.new(FILES_NAMESPACE, 'hosts', { specVersion: '1' }));
    await flags({ addressReady: true, connectivityReady: true, hostnameReady: true, etcFilesReady: false });
    await env.state.create(EtcFileStatus.new(FILES_NAMESPACE, 'resolv.conf', { specVersion: '1' }));
    await flags({ addressReady: true, connectivityReady: true, hostnameReady: true, etcFilesReady: true });
  });
});
