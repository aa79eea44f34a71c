// RouteStatusController against the real kernel, in a namespace of its own: the kernel's own routes, a
// default gateway and a route in table 100 appear and follow `ip route add/del`; a link going down
// takes its IPv4 routes along, which the kernel does without a route event.
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROUTE_STATUS_CONTROLLER, RouteStatusController } from '../../../controllers/network/route-status.js';
import {
  Family,
  NETWORK_NAMESPACE,
  RouteProtocol,
  RouteStatus,
  RouteType,
  RoutingTable,
  Scope,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { enterNetns, ip } from '../../sys/netns.js';
import { counter, ipj, startKernelRuntime } from './kernel-env.js';

enterNetns();

describe('network.RouteStatusController', () => {
  it('mirrors every table and follows ip route add/del', async () => {
    ip('link', 'add', 'rs0', 'type', 'veth', 'peer', 'name', 'rs1');
    onTestFinished(() => {
      if (ipj('link', 'show').some((x) => x.ifname === 'rs0')) ip('link', 'del', 'rs0');
    });
    ip('link', 'set', 'rs0', 'up');
    ip('link', 'set', 'rs1', 'up');
    ip('addr', 'add', '10.8.0.1/24', 'dev', 'rs0');
    const env = startKernelRuntime([RouteStatusController]);
    onTestFinished(env.stop);
    const has = (id: string, check: (r: RouteStatus) => void) =>
      assertResource(env.state, RouteStatus, id, check, { namespace: NETWORK_NAMESPACE });
    const gone = (id: string) => assertNoResource(env.state, RouteStatus.pointer(id, NETWORK_NAMESPACE));
    const [k0] = ipj('link', 'show', 'rs0');

    await has('inet4//10.8.0.0/24/0', (r) => {
      expect(r.metadata.owner).toBe(ROUTE_STATUS_CONTROLLER);
      expect(r.spec).toEqual({
        family: Family.Inet4,
        destination: '10.8.0.0/24',
        source: '10.8.0.1',
        gateway: '',
        outLinkIndex: k0.ifindex,
        outLinkName: 'rs0',
        table: RoutingTable.Main,
        priority: 0,
        scope: Scope.Link,
        type: RouteType.Unicast,
        flags: 0,
        protocol: RouteProtocol.Kernel,
        mtu: 0,
      });
    });
    await has('local/inet4//10.8.0.1/32/0', (r) => expect(r.spec.type).toBe(RouteType.Local));

    ip('route', 'add', 'default', 'via', '10.8.0.254', 'metric', '1024');
    ip('route', 'add', '10.9.0.0/16', 'via', '10.8.0.254', 'table', '100', 'mtu', '1400');
    ip('-6', 'route', 'add', 'fd00:9::/64', 'dev', 'rs0', 'metric', '256');
    await has('inet4/10.8.0.254//1024', (r) => {
      expect(r.spec.destination).toBe('');
      expect(r.spec.gateway).toBe('10.8.0.254');
      expect(r.spec.protocol).toBe(RouteProtocol.Boot);
    });
    await has('100/inet4/10.8.0.254/10.9.0.0/16/0', (r) => {
      expect(r.spec.table).toBe(100);
      expect(r.spec.mtu).toBe(1400);
    });
    await has('rs0/inet6//fd00:9::/64/256', (r) => expect(r.spec.family).toBe(Family.Inet6));

    ip('route', 'del', 'default');
    await gone('inet4/10.8.0.254//1024');
    // the kernel flushes rs0's IPv4 routes when it goes down, without announcing each
    ip('link', 'set', 'rs0', 'down');
    await gone('100/inet4/10.8.0.254/10.9.0.0/16/0');
    await gone('inet4//10.8.0.0/24/0');

    const before = counter(env, 'controller_wakeups', ROUTE_STATUS_CONTROLLER);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = counter(env, 'controller_wakeups', ROUTE_STATUS_CONTROLLER) - before;
    console.log(`route status wake-ups over an idle second: ${idle}`);
    expect(idle).toBeLessThanOrEqual(2);
  });
});
