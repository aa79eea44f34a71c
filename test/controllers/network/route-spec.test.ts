// RouteSpecController against the real kernel, in a namespace of its own: a default gateway with metric
// 1024, a route in table 100, an on-link route with a source and an IPv6 route converge; drift made by
// hand is undone; a torn-down spec's route leaves the kernel before its finalizer is released; a route
// via a gateway on no link (ENETUNREACH) is logged and shown as a KernelRefusal with its errno, does
// not spin the controller, and applies once an address makes the gateway reachable, its refusal gone.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ROUTE_SPEC_CONTROLLER,
  RouteSpecController,
  routeMessage,
} from '../../../controllers/network/route-spec.js';
import {
  ConfigLayer,
  Family,
  KernelRefusal,
  NETWORK_NAMESPACE,
  RouteProtocol,
  RouteSpec,
  type RouteSpecSpec,
  RouteType,
  RoutingTable,
  routeID,
  Scope,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { enterNetns, ip } from '../../sys/netns.js';
import { counter, ipj, startKernelRuntime, waitFor } from './kernel-env.js';

enterNetns();

const route = (more: Partial<RouteSpecSpec>) => {
  const s: RouteSpecSpec = {
    family: Family.Inet4,
    destination: '',
    source: '',
    gateway: '',
    outLinkName: '',
    table: RoutingTable.Main,
    priority: 1024,
    scope: Scope.Global,
    type: RouteType.Unicast,
    flags: 0,
    protocol: RouteProtocol.Static,
    configLayer: ConfigLayer.MachineConfiguration,
    mtu: 0,
    ...more,
  };
  return RouteSpec.new(
    NETWORK_NAMESPACE,
    routeID(s.table, s.family, s.destination, s.gateway, s.priority, s.outLinkName),
    s,
  );
};

/** kernelRoute finds a route in `ip -j route show table all` by destination (and table). */
const kernelRoute = (family: '-4' | '-6', dst: string, table = 'main') =>
  ipj(family, 'route', 'show', 'table', 'all').find(
    (r) => r.dst === dst && (r.table ?? 'main') === table && r.type !== 'local',
  );

function veth(name: string, address: string): void {
  ip('link', 'add', name, 'type', 'veth', 'peer', 'name', `${name}p`);
  onTestFinished(() => {
    if (ipj('link', 'show').some((l) => l.ifname === name)) ip('link', 'del', name);
  });
  ip('link', 'set', name, 'up');
  ip('link', 'set', `${name}p`, 'up');
  ip('addr', 'add', address, 'dev', name);
}

describe('routeMessage', () => {
  it('leaves out what the spec does not set, and names the preferred source', () => {
    const m = routeMessage(route({ gateway: '10.0.0.1' }).spec, 0);
    expect(m).toEqual({
      family: Family.Inet4,
      dstLen: 0,
      table: RoutingTable.Main,
      protocol: RouteProtocol.Static,
      scope: Scope.Global,
      type: RouteType.Unicast,
      flags: 0,
      gateway: '10.0.0.1',
      priority: 1024,
    });
    const onLink = routeMessage(
      route({ destination: '10.1.0.0/24', source: '10.0.0.2', scope: Scope.Link, mtu: 1400 }).spec,
      7,
    );
    expect(onLink).toMatchObject({
      dst: '10.1.0.0',
      dstLen: 24,
      prefsrc: '10.0.0.2',
      oif: 7,
      metrics: { mtu: 1400 },
    });
  });
});

describe('network.RouteSpecController', () => {
  it('converges routes, undoes drift, and deletes a torn-down route before releasing it', async () => {
    veth('rt0', '10.4.0.1/24');
    const env = startKernelRuntime([RouteSpecController]);
    onTestFinished(env.stop);
    const gw = route({ gateway: '10.4.0.254', outLinkName: 'rt0' });
    const t100 = route({ destination: '10.10.0.0/16', gateway: '10.4.0.254', table: 100 });
    const onLink = route({
      destination: '10.11.0.0/24',
      source: '10.4.0.1',
      outLinkName: 'rt0',
      scope: Scope.Link,
      priority: 10,
    });
    const v6 = route({ family: Family.Inet6, destination: 'fd00:4::/64', outLinkName: 'rt0', mtu: 1400 });
    for (const r of [gw, t100, onLink, v6]) await env.state.create(r);

    await waitFor(() =>
      expect(kernelRoute('-4', 'default')).toMatchObject({
        gateway: '10.4.0.254',
        dev: 'rt0',
        metric: 1024,
        protocol: 'static',
      }),
    );
    await waitFor(() =>
      expect(kernelRoute('-4', '10.10.0.0/16', '100')).toMatchObject({ gateway: '10.4.0.254', metric: 1024 }),
    );
    await waitFor(() =>
      expect(kernelRoute('-4', '10.11.0.0/24')).toMatchObject({
        prefsrc: '10.4.0.1',
        scope: 'link',
        metric: 10,
      }),
    );
    await waitFor(() =>
      expect(kernelRoute('-6', 'fd00:4::/64')).toMatchObject({ dev: 'rt0', metrics: [{ mtu: 1400 }] }),
    );

    // drift by hand: the default route deleted, then replaced by one of another protocol
    ip('route', 'del', 'default');
    const back = await waitFor(() => expect(kernelRoute('-4', 'default')).toBeDefined(), 5000);
    ip('route', 'replace', 'default', 'via', '10.4.0.254', 'dev', 'rt0', 'metric', '1024', 'proto', 'boot');
    const fixed = await waitFor(
      () => expect(kernelRoute('-4', 'default')).toMatchObject({ protocol: 'static' }),
      5000,
    );
    console.log(`route drift undone in ${back.toFixed(1)} ms (deleted), ${fixed.toFixed(1)} ms (protocol)`);

    await env.state.teardown(t100.metadata);
    await assertResource(env.state, RouteSpec, t100.metadata.id, (r) => {
      expect(r.metadata.finalizers.has(ROUTE_SPEC_CONTROLLER)).toBe(false);
      expect(kernelRoute('-4', '10.10.0.0/16', '100')).toBeUndefined();
    });
    await env.state.destroy(t100.metadata);
    expect(kernelRoute('-4', 'default')).toBeDefined();
  });

  it('logs an unreachable gateway, shows its errno as a status, does not spin, and applies it once reachable', async () => {
    veth('ru0', '10.3.0.1/24');
    const env = startKernelRuntime([RouteSpecController]);
    onTestFinished(env.stop);
    const unreachable = route({ destination: '10.20.0.0/16', gateway: '192.0.2.1' });
    await env.state.create(unreachable);
    await env.state.create(route({ destination: '10.21.0.0/16', gateway: '10.3.0.254' }));
    await waitFor(() => expect(kernelRoute('-4', '10.21.0.0/16')).toBeDefined());
    await waitFor(() =>
      expect(env.logs.find((l) => l.level === 'error' && l.fields.errno === 'ENETUNREACH')).toBeDefined(),
    );

    const cycles = counter(env, 'reconcile_cycles', ROUTE_SPEC_CONTROLLER);
    const lines = env.logs.length;
    await new Promise((r) => setTimeout(r, 1000));
    const c = counter(env, 'reconcile_cycles', ROUTE_SPEC_CONTROLLER) - cycles;
    const errors = env.logs.slice(lines).filter((l) => l.level === 'error').length;
    console.log(`refused route, over one second: ${c} passes, ${errors} error lines`);
    expect(c).toBeLessThanOrEqual(10);
    expect(errors).toBeLessThanOrEqual(1);
    expect(counter(env, 'controller_crashes', ROUTE_SPEC_CONTROLLER)).toBe(0);
    const refusal = await assertResource(env.state, KernelRefusal, `route/${unreachable.metadata.id}`, (r) =>
      expect(r.spec).toMatchObject({ specType: RouteSpec.type, errno: 'ENETUNREACH' }),
    );

    // the gateway's subnet appears: the refused route is retried and applies
    ip('addr', 'add', '192.0.2.10/24', 'dev', 'ru0');
    const t = await waitFor(
      () => expect(kernelRoute('-4', '10.20.0.0/16')).toMatchObject({ gateway: '192.0.2.1' }),
      10_000,
    );
    console.log(`refused route applied ${t.toFixed(0)} ms after its gateway became reachable`);
    await assertNoResource(env.state, KernelRefusal, refusal.metadata.id);
  });
});
