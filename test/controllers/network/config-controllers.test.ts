// The network config controllers: what each layer contributes, pure and on a real runtime.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  addressesOf,
  addressHostname,
  linksOf,
  networkConfigControllers,
  operatorsOf,
  parseCmdlineNetwork,
  resolversOf,
  routesOf,
  stableHostname,
  timeServersOf,
} from '../../../controllers/network/index.js';
import type { ConfigInputs } from '../../../controllers/network/internal/inputs.js';
import {
  ConfigLayer,
  HostnameSpec,
  LinkSpec,
  LinkStatus,
  LinkType,
  linkStatusZero,
  OperatorSpec,
  ResolverSpec,
  RouteSpec,
  TimeServerSpec,
} from '../../../resources/network/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from './env.js';

const LINKS = [
  { name: 'lo', loopback: true },
  { name: 'eth0', physical: true },
  { name: 'eth1', physical: true },
  { name: 'bond0' },
];

const inputs = (cmdline = '', extra: Partial<ConfigInputs> = {}): ConfigInputs => ({
  cfg: undefined,
  links: LINKS,
  cmdline: parseCmdlineNetwork(cmdline, { links: LINKS }),
  devices: [],
  ignored: new Set(),
  ...extra,
});

describe('without a config', () => {
  it('brings lo and every physical link up, and runs DHCPv4 on each physical link', () => {
    const links = linksOf(inputs()).map((l) => `${l.configLayer}/${l.name}`);
    expect(links).toEqual(['0/lo', '0/eth0', '0/eth1']);
    const ops = operatorsOf(inputs());
    expect(ops.map((o) => o.linkName)).toEqual(['eth0', 'eth1']);
    expect(ops[0]).toMatchObject({ requireUp: true, configLayer: ConfigLayer.Default });
    expect(ops[0]?.dhcp4).toMatchObject({ routeMetric: 1024, clientIdentifier: { clientIdentifier: 1 } });
  });

  it('puts 127.0.0.1/8 on lo except in container mode', () => {
    expect(addressesOf(inputs(), false).map((a) => a.address)).toEqual(['127.0.0.1/8']);
    expect(addressesOf(inputs(), true)).toEqual([]);
  });

  it('defaults resolvers to 1.1.1.1 and 8.8.8.8 and time to time.cloudflare.com', () => {
    expect(resolversOf(inputs())[0]?.dnsServers).toEqual(['1.1.1.1', '8.8.8.8']);
    expect(timeServersOf(inputs())[0]?.ntpServers).toEqual(['time.cloudflare.com']);
  });
});

describe('the cmdline layer', () => {
  const cmdline = 'ip=172.20.0.2::172.20.0.1:255.255.255.0:node1:eth1::10.0.0.1::10.0.0.9 ip=eth0:dhcp';

  it('takes its links out of the default layer and gives DHCP only where asked', () => {
    const links = linksOf(inputs(cmdline)).map((l) => `${l.configLayer}/${l.name}`);
    expect(links).toEqual(['0/lo', '1/eth1', '1/eth0']);
    expect(operatorsOf(inputs(cmdline)).map((o) => `${o.configLayer}/${o.linkName}`)).toEqual(['1/eth0']);
  });

  it('gives the address, the default route, the resolver and the time server', () => {
    const addrs = addressesOf(inputs(cmdline), true);
    expect(addrs.map((a) => [a.address, a.linkName, a.configLayer])).toEqual([['172.20.0.2/24', 'eth1', 1]]);
    const routes = routesOf(inputs(cmdline));
    expect(routes.map((r) => [r.gateway, r.outLinkName, r.priority, r.protocol])).toEqual([
      ['172.20.0.1', 'eth1', 1024, 3],
    ]);
    expect(resolversOf(inputs(cmdline))[1]).toMatchObject({ dnsServers: ['10.0.0.1'], configLayer: 1 });
    expect(timeServersOf(inputs(cmdline))[1]).toMatchObject({ ntpServers: ['10.0.0.9'], configLayer: 1 });
  });

  it('leaves ignored interfaces out of the default DHCP', () => {
    const ops = operatorsOf(inputs('talos.network.interface.ignore=eth1'));
    expect(ops.map((o) => o.linkName)).toEqual(['eth0']);
  });

  it('turns a cmdline bond into numbered bond settings', () => {
    const links = linksOf(inputs('bond=bond0:eth0,eth1:mode=802.3ad'));
    const bond = links.find((l) => l.name === 'bond0')!;
    expect(bond).toMatchObject({ kind: 'bond', logical: true, type: LinkType.Ether, configLayer: 1 });
    expect(bond.bondMaster).toMatchObject({ mode: 4, adActorSysPrio: 65535, adLACPActive: 1 });
  });
});

describe('the auto hostnames', () => {
  it('derives the stable hostname as upstream does', () => {
    expect(stableHostname('fGdOI05hVrx3YMagLo0Bwxa2Nm9BAswWm8XLeEj0aS4').hostname).toBe('talos-hwz-sw5');
  });

  it('names a host after its one default address', () => {
    expect(addressHostname(['33.11.22.44'])?.hostname).toBe('talos-33-11-22-44');
    expect(addressHostname([])).toBeUndefined();
  });
});

describe('networkConfigControllers on a runtime', () => {
  it('turn the command line and the links into merged network specs', async () => {
    const env = startRuntime(
      networkConfigControllers({
        cmdline: 'ip=10.0.0.2::10.0.0.1:24:node1:eth1 talos.hostname=node1.example.com',
      }),
    );
    onTestFinished(env.stop);
    for (const [name, type] of [
      ['eth0', LinkType.Ether],
      ['eth1', LinkType.Ether],
      ['lo', LinkType.Loopback],
    ] as const)
      await env.state.create(LinkStatus.new('network', name, { ...linkStatusZero(), type }));
    await assertResource(env.state, LinkSpec, 'eth1', (r) =>
      expect(r.spec).toMatchObject({ up: true, configLayer: 1 }),
    );
    await assertResource(env.state, LinkSpec, 'eth0', (r) =>
      expect(r.spec).toMatchObject({ up: true, configLayer: 0 }),
    );
    await assertResource(env.state, OperatorSpec, 'dhcp4/eth0', (r) => expect(r.spec.configLayer).toBe(0));
    await assertResource(env.state, RouteSpec, 'inet4/10.0.0.1//1024', (r) =>
      expect(r.spec.outLinkName).toBe('eth1'),
    );
    await assertResource(env.state, HostnameSpec, 'hostname', (r) =>
      expect(r.spec).toMatchObject({ hostname: 'node1', domainname: 'example.com' }),
    );
    await assertResource(env.state, ResolverSpec, 'resolvers', (r) =>
      expect(r.spec.dnsServers).toEqual(['1.1.1.1', '8.8.8.8']),
    );
    await assertResource(env.state, TimeServerSpec, 'timeservers', (r) =>
      expect(r.spec.ntpServers).toEqual(['time.cloudflare.com']),
    );
  });
});
