// LinkSpecController against the real kernel, in a namespace of its own: a bridge is made with its
// settings and veths enslaved to it, drift by hand is undone, a torn-down logical link is deleted
// before its finalizer is released, an MTU the kernel refuses is logged and shown as a KernelRefusal
// with its errno without spinning (and gone once the spec is fixed), and a dummy, a vlan on it and a bond of two dummies are made where the kernel has those
// kinds (and otherwise refused with EOPNOTSUPP, the others still converging).
import { execFileSync } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { LINK_SPEC_CONTROLLER, LinkSpecController } from '../../../controllers/network/link-spec.js';
import {
  BondMode,
  bondMasterZero,
  ConfigLayer,
  KernelRefusal,
  LinkSpec,
  type LinkSpecSpec,
  LinkType,
  linkSpecZero,
  NETWORK_NAMESPACE,
  VLANProtocol,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { enterNetns, ip } from '../../sys/netns.js';
import { counter, ipj, startKernelRuntime, waitFor } from './kernel-env.js';

enterNetns();

const link = (name: string, more: Partial<LinkSpecSpec>) =>
  LinkSpec.new(NETWORK_NAMESPACE, name, {
    ...linkSpecZero(),
    name,
    type: LinkType.Ether,
    configLayer: ConfigLayer.MachineConfiguration,
    ...more,
  });

const show = (name: string) => ipj('-d', 'link', 'show').find((l) => l.ifname === name);
const up = (name: string) => (show(name)?.flags as string[] | undefined)?.includes('UP') ?? false;

/** has tells whether this kernel makes links of a kind (CONFIG_DUMMY, CONFIG_BONDING, CONFIG_VLAN_8021Q). */
function has(kind: string): boolean {
  try {
    execFileSync('ip', ['link', 'add', 'probe0', 'type', kind], { stdio: 'ignore' });
    ip('link', 'del', 'probe0');
    return true;
  } catch {
    return false;
  }
}

/** EOPNOTSUPP, which the errno table names by its alias ENOTSUP (both 95) */
const unsupported = (errno: unknown) => errno === 'EOPNOTSUPP' || errno === 'ENOTSUP';

function cleanup(...names: string[]): void {
  onTestFinished(() => {
    for (const n of names) if (show(n)) ip('link', 'del', n);
  });
}

describe('network.LinkSpecController', () => {
  it('makes a bridge, enslaves a veth, undoes drift, and deletes the bridge before releasing it', async () => {
    ip('link', 'add', 'lv0', 'type', 'veth', 'peer', 'name', 'lv0p');
    cleanup('lv0', 'kbr0');
    const env = startKernelRuntime([LinkSpecController]);
    onTestFinished(env.stop);
    const bridge = link('kbr0', {
      logical: true,
      up: true,
      kind: 'bridge',
      mtu: 1400,
      bridgeMaster: { stp: { enabled: true }, vlan: { filteringEnabled: false } },
    });
    await env.state.create(bridge);
    await env.state.create(link('lv0', { up: true, mtu: 1400, bridgeSlave: { masterName: 'kbr0' } }));
    await env.state.create(link('lv0p', { up: true }));

    await waitFor(() => {
      expect(show('kbr0')).toMatchObject({ mtu: 1400, linkinfo: { info_kind: 'bridge' } });
      expect(show('kbr0').linkinfo.info_data.stp_state).toBe(1);
      expect(up('kbr0')).toBe(true);
      expect(show('lv0')).toMatchObject({ master: 'kbr0', mtu: 1400 });
      expect(up('lv0')).toBe(true);
      expect(up('lv0p')).toBe(true);
    });
    await assertResource(env.state, LinkSpec, 'kbr0', (r) =>
      expect(r.metadata.finalizers.has(LINK_SPEC_CONTROLLER)).toBe(true),
    );

    // drift by hand
    ip('link', 'set', 'lv0', 'down');
    const upAgain = await waitFor(() => expect(up('lv0')).toBe(true), 5000);
    ip('link', 'set', 'lv0', 'nomaster');
    const enslaved = await waitFor(() => {
      expect(show('lv0')?.master).toBe('kbr0');
      expect(up('lv0')).toBe(true);
    }, 5000);
    ip('link', 'set', 'kbr0', 'mtu', '1500');
    const mtu = await waitFor(() => expect(show('kbr0')?.mtu).toBe(1400), 5000);
    ip('link', 'set', 'kbr0', 'type', 'bridge', 'stp_state', '0');
    const stp = await waitFor(() => expect(show('kbr0')?.linkinfo.info_data.stp_state).toBe(1), 5000);
    console.log(
      `link drift undone in ${upAgain.toFixed(1)} ms (down), ${enslaved.toFixed(1)} ms (nomaster), ` +
        `${mtu.toFixed(1)} ms (mtu), ${stp.toFixed(1)} ms (stp)`,
    );

    await env.state.teardown(bridge.metadata);
    await assertResource(env.state, LinkSpec, 'kbr0', (r) => {
      expect(r.metadata.finalizers.has(LINK_SPEC_CONTROLLER)).toBe(false);
      expect(show('kbr0')).toBeUndefined();
    });
    await env.state.destroy(bridge.metadata);
    expect(show('lv0')).toBeDefined(); // a physical link is never deleted
  });

  it('logs an MTU the kernel refuses, shows it as a status with its errno, does not spin, and clears it once fixed', async () => {
    ip('link', 'add', 'lm0', 'type', 'veth', 'peer', 'name', 'lm0p');
    cleanup('lm0');
    const env = startKernelRuntime([LinkSpecController]);
    onTestFinished(env.stop);
    const lm0 = link('lm0', { up: true, mtu: 70_000 });
    await env.state.create(lm0);
    await env.state.create(link('lm0p', { up: true, mtu: 1280 }));
    await waitFor(() => expect(show('lm0p')?.mtu).toBe(1280));
    await waitFor(() =>
      expect(env.logs.find((l) => l.level === 'error' && l.fields.errno === 'EINVAL')).toBeDefined(),
    );
    const cycles = counter(env, 'reconcile_cycles', LINK_SPEC_CONTROLLER);
    const lines = env.logs.length;
    await new Promise((r) => setTimeout(r, 1000));
    const c = counter(env, 'reconcile_cycles', LINK_SPEC_CONTROLLER) - cycles;
    const errors = env.logs.slice(lines).filter((l) => l.level === 'error').length;
    console.log(`refused MTU, over one second: ${c} passes, ${errors} error lines`);
    expect(c).toBeLessThanOrEqual(10);
    expect(errors).toBeLessThanOrEqual(1);
    expect(counter(env, 'controller_crashes', LINK_SPEC_CONTROLLER)).toBe(0);
    ip('link', 'set', 'lm0p', 'mtu', '1500');
    await waitFor(() => expect(show('lm0p')?.mtu).toBe(1280), 5000);

    // the refusal is a status with its errno, counting the retries (250 ms, then 500 ms apart)
    const refusal = await assertResource(env.state, KernelRefusal, 'link/lm0', (r) => {
      expect(r.spec).toMatchObject({ specType: LinkSpec.type, specID: 'lm0', errno: 'EINVAL' });
      expect(r.spec.attempts).toBeGreaterThanOrEqual(2);
    });
    expect(refusal.spec.message).toContain('EINVAL');
    expect(refusal.spec.nextRetry).toBeGreaterThan(refusal.spec.since);
    expect(refusal.metadata.owner).toBe(LINK_SPEC_CONTROLLER);
    // a spec the kernel takes: applied at once (a new version is not waited out), its refusal gone
    await env.state.updateWithConflicts<LinkSpec>(lm0.metadata, (r) => {
      r.spec.mtu = 9000;
    });
    await waitFor(() => expect(show('lm0')?.mtu).toBe(9000), 5000);
    await assertNoResource(env.state, KernelRefusal, 'link/lm0');
  });

  it('makes a dummy, a vlan on it and a bond of two dummies, where the kernel has those kinds', async () => {
    const kinds = { dummy: has('dummy'), bond: has('bond') };
    cleanup('kd0', 'kd0.10', 'kbond0', 'kd1', 'kd2');
    const env = startKernelRuntime([LinkSpecController]);
    onTestFinished(env.stop);
    await env.state.create(link('kd0', { logical: true, up: true, kind: 'dummy' }));
    await env.state.create(
      link('kd0.10', {
        logical: true,
        up: true,
        kind: 'vlan',
        parentName: 'kd0',
        vlan: { vid: 10, protocol: VLANProtocol.Q8021 },
      }),
    );
    const bond = { ...bondMasterZero(), mode: BondMode.ActiveBackup, miimon: 100, useCarrier: true };
    await env.state.create(link('kbond0', { logical: true, up: true, kind: 'bond', bondMaster: bond }));
    for (const [i, n] of ['kd1', 'kd2'].entries())
      await env.state.create(
        link(n, {
          logical: true,
          up: true,
          kind: 'dummy',
          bondSlave: { masterName: 'kbond0', slaveIndex: i },
        }),
      );
    // a kind every kernel here has, converging whatever else is refused
    await env.state.create(link('kbr9', { logical: true, up: true, kind: 'bridge' }));
    cleanup('kbr9');
    await waitFor(() => expect(up('kbr9')).toBe(true));

    if (kinds.dummy) {
      await waitFor(() => {
        expect(show('kd0')?.linkinfo.info_kind).toBe('dummy');
        expect(show('kd0.10')?.linkinfo.info_data).toMatchObject({ protocol: '802.1Q', id: 10 });
      });
    } else {
      // CONFIG_DUMMY is off: a refusal with the kernel's errno, and the vlan waits for its parent
      await waitFor(() =>
        expect(
          env.logs.find((l) => l.level === 'error' && unsupported(l.fields.errno) && /kd0/.test(l.msg)),
        ).toBeDefined(),
      );
      expect(show('kd0.10')).toBeUndefined();
    }
    if (kinds.bond && kinds.dummy) {
      await waitFor(() => {
        expect(show('kbond0')?.linkinfo.info_data).toMatchObject({ mode: 'active-backup', miimon: 100 });
        expect(show('kd1')?.master).toBe('kbond0');
        expect(show('kd2')?.master).toBe('kbond0');
      });
    } else if (!kinds.bond) {
      await waitFor(() =>
        expect(
          env.logs.find((l) => l.level === 'error' && unsupported(l.fields.errno) && /kbond0/.test(l.msg)),
        ).toBeDefined(),
      );
    }
    console.log(`kinds this kernel has: ${JSON.stringify(kinds)}`);
  });
});
