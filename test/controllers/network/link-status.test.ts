// LinkStatusController against the real kernel, in a namespace of its own: statuses appear for lo, a
// veth pair and a bridge, follow `ip link` changes made behind its back, and go with their links.
import { describe, expect, it, onTestFinished } from 'vitest';
import { LINK_STATUS_CONTROLLER, LinkStatusController } from '../../../controllers/network/link-status.js';
import {
  LinkFlag,
  LinkStatus,
  LinkType,
  NETWORK_NAMESPACE,
  OperationalState,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { enterNetns, ip } from '../../sys/netns.js';
import { counter, ipj, startKernelRuntime } from './kernel-env.js';

enterNetns();

const status = (env: ReturnType<typeof startKernelRuntime>, id: string, check: (s: LinkStatus) => void) =>
  assertResource(env.state, LinkStatus, id, check, { namespace: NETWORK_NAMESPACE, timeoutMs: 10_000 });

describe('network.LinkStatusController', () => {
  it('mirrors lo, a veth pair and a bridge, and follows ip link changes', async () => {
    ip('link', 'add', 'ls0', 'type', 'veth', 'peer', 'name', 'ls1');
    onTestFinished(() => {
      for (const l of ['ls0', 'kbr0'])
        ipj('link', 'show').some((x) => x.ifname === l) && ip('link', 'del', l);
    });
    const env = startKernelRuntime([LinkStatusController]);
    onTestFinished(env.stop);

    await status(env, 'lo', (r) => {
      expect(r.metadata.owner).toBe(LINK_STATUS_CONTROLLER);
      expect(r.spec.type).toBe(LinkType.Loopback);
      expect(r.spec.index).toBe(1);
      expect(r.spec.flags & (LinkFlag.Up | LinkFlag.Loopback)).toBe(LinkFlag.Up | LinkFlag.Loopback);
      expect(r.spec.mtu).toBe(65536);
      expect(r.spec.queueDisc).toBe('noqueue');
      expect(r.spec.linkState).toBe(true);
    });
    const [k0] = ipj('link', 'show', 'ls0');
    const [k1] = ipj('link', 'show', 'ls1');
    await status(env, 'ls0', (r) => {
      expect(r.spec).toMatchObject({
        index: k0.ifindex,
        type: LinkType.Ether,
        kind: 'veth',
        hardwareAddr: k0.address,
        broadcastAddr: 'ff:ff:ff:ff:ff:ff',
        linkIndex: k1.ifindex,
        mtu: 1500,
        operationalState: OperationalState.Down,
        linkState: false,
      });
      expect(r.spec.flags & LinkFlag.Up).toBe(0);
    });

    // changes made behind its back arrive as netlink events
    ip('link', 'set', 'ls0', 'up');
    ip('link', 'set', 'ls1', 'up');
    await status(env, 'ls0', (r) => {
      expect(r.spec.operationalState).toBe(OperationalState.Up);
      expect(r.spec.linkState).toBe(true);
      expect(r.spec.flags & LinkFlag.Up).toBe(LinkFlag.Up);
    });
    ip('link', 'set', 'ls0', 'mtu', '1400');
    ip('link', 'set', 'ls1', 'down');
    await status(env, 'ls0', (r) => {
      expect(r.spec.mtu).toBe(1400);
      expect(r.spec.linkState).toBe(false); // the peer went down: no carrier
      expect(r.spec.operationalState).toBe(OperationalState.LowerLayerDown);
    });

    ip('link', 'add', 'kbr0', 'type', 'bridge', 'stp_state', '1');
    ip('link', 'set', 'ls1', 'master', 'kbr0');
    const [br] = ipj('link', 'show', 'kbr0');
    await status(env, 'kbr0', (r) => {
      expect(r.spec.kind).toBe('bridge');
      expect(r.spec.bridgeMaster).toEqual({ stp: { enabled: true }, vlan: { filteringEnabled: false } });
    });
    await status(env, 'ls1', (r) => {
      expect(r.spec.masterIndex).toBe(br.ifindex);
      expect(r.spec.slaveKind).toBe('bridge');
    });

    // a deleted veth takes its peer along: both statuses go
    ip('link', 'del', 'ls0');
    await assertNoResource(env.state, LinkStatus.pointer('ls0', NETWORK_NAMESPACE));
    await assertNoResource(env.state, LinkStatus.pointer('ls1', NETWORK_NAMESPACE));

    // no polling: an idle kernel wakes it (almost) never
    const before = counter(env, 'controller_wakeups', LINK_STATUS_CONTROLLER);
    await new Promise((r) => setTimeout(r, 1000));
    const idle = counter(env, 'controller_wakeups', LINK_STATUS_CONTROLLER) - before;
    console.log(`link status wake-ups over an idle second: ${idle}`);
    expect(idle).toBeLessThanOrEqual(2);
  });
});
