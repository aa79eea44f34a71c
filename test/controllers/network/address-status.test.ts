// AddressStatusController against the real kernel, in a namespace of its own: lo's addresses and a
// veth's appear, and follow `ip addr add/del` made behind its back.
import { describe, expect, it, onTestFinished } from 'vitest';
import { AddressStatusController } from '../../../controllers/network/address-status.js';
import { ADDRESS_STATUS_CONTROLLER } from '../../../controllers/network/node-address.js';
import {
  AddressFlag,
  AddressStatus,
  Family,
  NETWORK_NAMESPACE,
  Scope,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { enterNetns, ip } from '../../sys/netns.js';
import { counter, ipj, startKernelRuntime } from './kernel-env.js';

enterNetns();

describe('network.AddressStatusController', () => {
  it('mirrors the kernel addresses and follows ip addr add/del', async () => {
    ip('link', 'add', 'as0', 'type', 'veth', 'peer', 'name', 'as1');
    onTestFinished(() => {
      if (ipj('link', 'show').some((x) => x.ifname === 'as0')) ip('link', 'del', 'as0');
    });
    ip('addr', 'add', '10.7.0.1/24', 'brd', '+', 'dev', 'as0');
    const env = startKernelRuntime([AddressStatusController]);
    onTestFinished(env.stop);
    const has = (id: string, check: (r: AddressStatus) => void) =>
      assertResource(env.state, AddressStatus, id, check, { namespace: NETWORK_NAMESPACE });

    await has('lo/127.0.0.1/8', (r) => {
      expect(r.metadata.owner).toBe(ADDRESS_STATUS_CONTROLLER);
      expect(r.spec).toMatchObject({ linkName: 'lo', linkIndex: 1, family: Family.Inet4, scope: Scope.Host });
    });
    await has('lo/::1/128', (r) => expect(r.spec.family).toBe(Family.Inet6));
    const [k0] = ipj('link', 'show', 'as0');
    await has('as0/10.7.0.1/24', (r) =>
      expect(r.spec).toEqual({
        address: '10.7.0.1/24',
        local: '10.7.0.1',
        broadcast: '10.7.0.255',
        anycast: '',
        multicast: '',
        linkIndex: k0.ifindex,
        linkName: 'as0',
        family: Family.Inet4,
        scope: Scope.Global,
        flags: AddressFlag.Permanent,
        priority: 0,
      }),
    );

    ip('addr', 'add', 'fd00:7::1/64', 'dev', 'as0', 'nodad', 'metric', '300');
    await has('as0/fd00:7::1/64', (r) => {
      expect(r.spec.family).toBe(Family.Inet6);
      expect(r.spec.flags).toBe(AddressFlag.Permanent | AddressFlag.NoDAD);
      expect(r.spec.priority).toBe(300);
    });
    ip('addr', 'del', '10.7.0.1/24', 'dev', 'as0');
    await assertNoResource(env.state, AddressStatus.pointer('as0/10.7.0.1/24', NETWORK_NAMESPACE));
    ip('link', 'del', 'as0');
    await assertNoResource(env.state, AddressStatus.pointer('as0/fd00:7::1/64', NETWORK_NAMESPACE));

    const before = counter(env, 'controller_wakeups', ADDRESS_STATUS_CONTROLLER);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = counter(env, 'controller_wakeups', ADDRESS_STATUS_CONTROLLER) - before;
    console.log(`address status wake-ups over an idle second: ${idle}`);
    expect(idle).toBeLessThanOrEqual(2);
  });
});
