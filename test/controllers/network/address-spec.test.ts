// AddressSpecController against the real kernel, in a namespace of its own: specs converge (IPv4 and
// IPv6, on a link that appears later), drift made by hand is undone, a torn-down spec's address leaves
// the kernel before its finalizer is released, and a refused spec is logged and shown as a KernelRefusal
// with its errno while the others still converge, without the controller spinning on it; the refusal
// goes with its spec.
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ADDRESS_SPEC_CONTROLLER,
  AddressSpecController,
  addressSettled,
} from '../../../controllers/network/address-spec.js';
import {
  AddressFlag,
  AddressSpec,
  type AddressSpecSpec,
  ConfigLayer,
  Family,
  KernelRefusal,
  NETWORK_NAMESPACE,
  Scope,
} from '../../../resources/network/index.js';
import { assertNoResource, assertResource } from '../../../src/cosi/testing/assert-resources.js';
import type { Address } from '../../../src/sys/netlink/index.js';
import { enterNetns, ip } from '../../sys/netns.js';
import { counter, ipj, startKernelRuntime, waitFor } from './kernel-env.js';

enterNetns();

const spec = (linkName: string, address: string, more: Partial<AddressSpecSpec> = {}) =>
  AddressSpec.new(NETWORK_NAMESPACE, `${linkName}/${address}`, {
    address,
    linkName,
    family: address.includes(':') ? Family.Inet6 : Family.Inet4,
    scope: Scope.Global,
    flags: AddressFlag.Permanent,
    announceWithARP: false,
    priority: 0,
    configLayer: ConfigLayer.MachineConfiguration,
    ...more,
  });

/** kernelAddr is the address as `ip -j addr` shows it on the link, or undefined. */
const kernelAddr = (link: string, prefix: string) => {
  const [local, len] = prefix.split('/');
  const [l] = ipj('addr', 'show', 'dev', link);
  // biome-ignore lint/suspicious/noExplicitAny: iproute2's JSON
  return l?.addr_info.find((a: any) => a.local === local && a.prefixlen === Number(len));
};
const linkExists = (name: string) => ipj('link', 'show').some((l) => l.ifname === name);

function veth(name: string): void {
  ip('link', 'add', name, 'type', 'veth', 'peer', 'name', `${name}p`);
  onTestFinished(() => {
    if (linkExists(name)) ip('link', 'del', name);
  });
}

describe('addressSettled', () => {
  const a = (flags: number, scope = 0, priority?: number) =>
    ({ flags, scope, ...(priority ? { priority } : {}) }) as Address;
  const s = spec('x', '10.0.0.1/24').spec;
  it('ignores the kernel-owned tentative and permanent flags', () => {
    expect(addressSettled(a(AddressFlag.Permanent | AddressFlag.Tentative), s)).toBe(true);
    expect(addressSettled(a(0), s)).toBe(true);
  });
  it('tells a scope, flag or priority mismatch', () => {
    expect(addressSettled(a(AddressFlag.Permanent, Scope.Link), s)).toBe(false);
    expect(addressSettled(a(AddressFlag.Permanent | AddressFlag.NoDAD), s)).toBe(false);
    expect(addressSettled(a(AddressFlag.Permanent, 0, 5), s)).toBe(false);
  });
});

describe('network.AddressSpecController', () => {
  it('converges specs, undoes drift, and removes a torn-down address before releasing it', async () => {
    veth('ad0');
    const env = startKernelRuntime([AddressSpecController]);
    onTestFinished(env.stop);
    const v4 = spec('ad0', '10.6.0.1/24');
    const v6 = spec('ad0', 'fd00:6::1/64', {
      flags: AddressFlag.Permanent | AddressFlag.NoDAD,
      priority: 300,
    });
    await env.state.create(v4);
    await env.state.create(v6);

    await waitFor(() => expect(kernelAddr('ad0', '10.6.0.1/24')).toMatchObject({ scope: 'global' }));
    await waitFor(() =>
      expect(kernelAddr('ad0', 'fd00:6::1/64')).toMatchObject({ nodad: true, metric: 300 }),
    );
    await assertResource(env.state, AddressSpec, v4.metadata.id, (r) =>
      expect(r.metadata.finalizers.has(ADDRESS_SPEC_CONTROLLER)).toBe(true),
    );

    // drift by hand: deleted, then re-added with another scope
    ip('addr', 'del', '10.6.0.1/24', 'dev', 'ad0');
    const readded = await waitFor(() => expect(kernelAddr('ad0', '10.6.0.1/24')).toBeDefined(), 5000);
    ip('addr', 'replace', '10.6.0.1/24', 'dev', 'ad0', 'scope', 'link');
    const rescoped = await waitFor(
      () => expect(kernelAddr('ad0', '10.6.0.1/24')).toMatchObject({ scope: 'global' }),
      5000,
    );
    console.log(
      `address drift undone in ${readded.toFixed(1)} ms (deleted), ${rescoped.toFixed(1)} ms (scope)`,
    );

    // a spec for a link that is not there yet applies once it appears
    await env.state.create(spec('ad1', '10.6.1.1/24'));
    veth('ad1');
    await waitFor(() => expect(kernelAddr('ad1', '10.6.1.1/24')).toBeDefined());

    // teardown: the address is gone from the kernel by the time the finalizer is released
    await env.state.teardown(v4.metadata);
    await assertResource(env.state, AddressSpec, v4.metadata.id, (r) => {
      expect(r.metadata.finalizers.has(ADDRESS_SPEC_CONTROLLER)).toBe(false);
      expect(kernelAddr('ad0', '10.6.0.1/24')).toBeUndefined();
    });
    await env.state.destroy(v4.metadata);
    expect(kernelAddr('ad0', 'fd00:6::1/64')).toBeDefined();
  });

  it('logs a refused spec, shows it as a status with its errno, converges the others, and does not spin', async () => {
    veth('ar0');
    const env = startKernelRuntime([AddressSpecController]);
    onTestFinished(env.stop);
    // an IPv6 multicast address without IFA_F_MCAUTOJOIN: the kernel answers EADDRNOTAVAIL
    const refused = spec('ar0', 'ff02::5/128');
    await env.state.create(refused);
    await env.state.create(spec('ar0', '10.5.0.1/24'));
    await waitFor(() => expect(kernelAddr('ar0', '10.5.0.1/24')).toBeDefined());
    await waitFor(() =>
      expect(env.logs.find((l) => l.level === 'error' && l.fields.errno === 'EADDRNOTAVAIL')).toBeDefined(),
    );

    const wakeups = counter(env, 'controller_wakeups', ADDRESS_SPEC_CONTROLLER);
    const cycles = counter(env, 'reconcile_cycles', ADDRESS_SPEC_CONTROLLER);
    const lines = env.logs.length;
    await new Promise((r) => setTimeout(r, 1000));
    const w = counter(env, 'controller_wakeups', ADDRESS_SPEC_CONTROLLER) - wakeups;
    const c = counter(env, 'reconcile_cycles', ADDRESS_SPEC_CONTROLLER) - cycles;
    const errors = env.logs.slice(lines).filter((l) => l.level === 'error').length;
    console.log(`refused address, over one second: ${w} wake-ups, ${c} passes, ${errors} error lines`);
    expect(c).toBeLessThanOrEqual(10);
    expect(errors).toBeLessThanOrEqual(1);
    expect(counter(env, 'controller_crashes', ADDRESS_SPEC_CONTROLLER)).toBe(0);

    // the others still converge while it is refused
    ip('addr', 'del', '10.5.0.1/24', 'dev', 'ar0');
    await waitFor(() => expect(kernelAddr('ar0', '10.5.0.1/24')).toBeDefined(), 5000);

    // the refusal is a status with its errno, counting the retries; the converged spec has none
    const id = 'address/ar0/ff02::5/128';
    await assertResource(env.state, KernelRefusal, id, (r) => {
      expect(r.spec).toMatchObject({ specType: AddressSpec.type, specID: 'ar0/ff02::5/128' });
      expect(r.spec.errno).toBe('EADDRNOTAVAIL');
      expect(r.spec.attempts).toBeGreaterThanOrEqual(2);
    });
    const all = await env.state.list({ namespace: NETWORK_NAMESPACE, type: KernelRefusal.type });
    expect(all.map((r) => r.metadata.id)).toEqual([id]);
    // the spec goes away: so does its refusal
    await env.state.teardown(refused.metadata);
    await assertResource(env.state, AddressSpec, refused.metadata.id, (r) =>
      expect(r.metadata.finalizers.has(ADDRESS_SPEC_CONTROLLER)).toBe(false),
    );
    await env.state.destroy(refused.metadata);
    await assertNoResource(env.state, KernelRefusal, id);
  });
});
