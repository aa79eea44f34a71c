// OperatorSpecController with the real DHCPv4 client against dnsmasq across a veth pair.
import { describe, expect, it, onTestFinished } from 'vitest';
import { dhcp4Operator } from '../../../controllers/network/dhcp4-operator.js';
import { operatorSpecController } from '../../../controllers/network/operator-spec.js';
import {
  AddressSpec,
  ClientIdentifier,
  ConfigLayer,
  HostnameSpec,
  LinkStatus,
  linkStatusZero,
  NETWORK_CONFIG_NAMESPACE,
  NETWORK_NAMESPACE,
  OperationalState,
  Operator,
  OperatorSpec,
  ResolverSpec,
  RouteSpec,
  TimeServerSpec,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startDnsmasq } from '../../sys/dhcp4/dnsmasq.js';
import { enterNetns, peerNetns, vethTo } from '../../sys/netns.js';
import { startRuntime } from '../secrets/env.js';

const cfg = { namespace: NETWORK_CONFIG_NAMESPACE };

describe('network.OperatorSpecController', () => {
  enterNetns();
  const peer = peerNetns();
  vethTo(peer, 'op0', 'op1');
  peer.run('ip', 'addr', 'add', '198.51.100.1/24', 'dev', 'op1');

  it('runs DHCPv4 on a link that is up, writes the lease as operator specs, and withdraws them with the spec', async ({
    signal,
  }) => {
    const server = await startDnsmasq(peer, 'op1', [
      '--dhcp-range=198.51.100.50,198.51.100.50,255.255.255.0,2m',
      '--dhcp-option=option:router,198.51.100.1',
      '--dhcp-option=option:dns-server,198.51.100.1',
      '--dhcp-option=option:ntp-server,198.51.100.1',
      '--dhcp-option=option:domain-search,lab.example',
      '--dhcp-host=*:*:*:*:*:*,node7',
      '--domain=lab.example',
    ]);
    onTestFinished(() => server.stop());
    const env = startRuntime([operatorSpecController({ dhcp4: dhcp4Operator })]);
    onTestFinished(env.stop);
    await env.state.create(
      OperatorSpec.new(NETWORK_NAMESPACE, 'dhcp4/op0', {
        ...OperatorSpec.codec.empty(),
        operator: Operator.DHCP4,
        linkName: 'op0',
        requireUp: true,
        dhcp4: {
          routeMetric: 1024,
          skipHostnameRequest: false,
          clientIdentifier: { clientIdentifier: ClientIdentifier.MAC, duidRawHex: '' },
        },
        configLayer: ConfigLayer.Default,
      }),
    );
    // no link status yet: nothing runs
    await new Promise((r) => setTimeout(r, 200));
    expect(server.log.some((l) => /DHCPDISCOVER/.test(l))).toBe(false);
    await env.state.create(
      LinkStatus.new(NETWORK_NAMESPACE, 'op0', {
        ...linkStatusZero(),
        operationalState: OperationalState.Up,
      }),
    );

    await assertResource(
      env.state,
      AddressSpec,
      'dhcp4/op0/op0/198.51.100.50/24',
      (r) => {
        expect(r.spec.configLayer).toBe(ConfigLayer.Operator);
        expect(r.spec.priority).toBe(1024);
      },
      { ...cfg, signal },
    );
    await assertResource(
      env.state,
      RouteSpec,
      'dhcp4/op0/inet4/198.51.100.1//1024',
      (r) => {
        expect(r.spec.gateway).toBe('198.51.100.1');
        expect(r.spec.source).toBe('198.51.100.50');
      },
      { ...cfg, signal },
    );
    await assertResource(
      env.state,
      ResolverSpec,
      'dhcp4/op0/resolvers',
      (r) => expect(r.spec).toMatchObject({ dnsServers: ['198.51.100.1'], searchDomains: ['lab.example'] }),
      { ...cfg, signal },
    );
    await assertResource(
      env.state,
      TimeServerSpec,
      'dhcp4/op0/timeservers',
      (r) => expect(r.spec.ntpServers).toEqual(['198.51.100.1']),
      { ...cfg, signal },
    );
    await assertResource(
      env.state,
      HostnameSpec,
      'dhcp4/op0/hostname',
      (r) => expect(r.spec).toMatchObject({ hostname: 'node7', domainname: 'lab.example' }),
      { ...cfg, signal },
    );

    // the spec goes: the client releases nothing (not a shutdown) but its specs are withdrawn
    await env.state.destroy(OperatorSpec.pointer('dhcp4/op0'));
    await assertNoResource(env.state, AddressSpec, 'dhcp4/op0/op0/198.51.100.50/24', { ...cfg, signal });
    await assertNoResource(env.state, ResolverSpec, 'dhcp4/op0/resolvers', { ...cfg, signal });
  });
});
