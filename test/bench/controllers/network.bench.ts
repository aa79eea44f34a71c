// Config change → kernel converged, for the kernel-facing network controllers: an AddressSpec created
// until the kernel announces the address, and torn down until it announces its removal, timed by the
// netlink events themselves. Needs root; runs in a network namespace of its own, left afterwards.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { AddressSpecController } from '../../../controllers/network/address-spec.js';
import {
  AddressFlag,
  AddressSpec,
  ConfigLayer,
  Family,
  NETWORK_NAMESPACE,
  Scope,
} from '../../../resources/network/index.js';
import { CLONE_NEWNET, setnsFd, setnsPath } from '../../../src/sys/namespace.js';
import * as C from '../../../src/sys/netlink/constants.js';
import { subscribe } from '../../../src/sys/netlink/index.js';
import { startRuntime } from '../../controllers/secrets/env.js';
import { figure, group, nowMs, percentile } from '../harness.js';

const RUNS = 100;

/** inNetns runs `fn` with this thread in a fresh namespace (lo up), then returns home and deletes it. */
async function inNetns(fn: () => Promise<void>): Promise<void> {
  if (process.getuid?.() !== 0) throw new Error('the network controllers benchmark needs root (a netns)');
  const name = `keel-b-${process.pid}-net`;
  execFileSync('ip', ['netns', 'add', name]);
  const home = openSync('/proc/thread-self/ns/net', 'r');
  try {
    setnsPath(`/run/netns/${name}`, CLONE_NEWNET);
    execFileSync('ip', ['link', 'set', 'lo', 'up']);
    await fn();
  } finally {
    setnsFd(home, CLONE_NEWNET);
    closeSync(home);
    execFileSync('ip', ['netns', 'del', name]);
  }
}

const spec = (i: number) => {
  const address = `10.99.${i >> 8}.${i & 255}/32`;
  return AddressSpec.new(NETWORK_NAMESPACE, `bv0/${address}`, {
    address,
    linkName: 'bv0',
    family: Family.Inet4,
    scope: Scope.Global,
    flags: AddressFlag.Permanent,
    announceWithARP: false,
    priority: 0,
    configLayer: ConfigLayer.MachineConfiguration,
  });
};

await group('network spec controllers, 2 cores (target: p50 and p99 ≤ 50 ms, AddressSpec → kernel)', () =>
  inNetns(async () => {
    execFileSync('ip', ['link', 'add', 'bv0', 'type', 'veth', 'peer', 'name', 'bv1']);
    // the kernel's own announcements mark the moment it has converged
    const waiters = new Map<string, () => void>();
    const events = subscribe({
      groups: [C.RTNLGRP_IPV4_IFADDR],
      onEvent: (e) => {
        if (e.kind !== 'address' || !e.address.local) return;
        waiters.get(`${e.action}/${e.address.local}/${e.address.prefixLen}`)?.();
      },
    });
    const announced = (key: string) =>
      new Promise<void>((resolve) => {
        waiters.set(key, () => {
          waiters.delete(key);
          resolve();
        });
      });
    const env = startRuntime([AddressSpecController]);
    try {
      const add: number[] = [];
      const del: number[] = [];
      for (let i = 0; i <= RUNS; i++) {
        const s = spec(i);
        const seen = announced(`new/${s.spec.address}`);
        const t0 = nowMs();
        await env.state.create(s);
        await seen;
        const t1 = nowMs();
        const gone = announced(`del/${s.spec.address}`);
        await env.state.teardown(s.metadata);
        await gone;
        const t2 = nowMs();
        if (i === 0) continue; // warm-up
        add.push(t1 - t0);
        del.push(t2 - t1);
      }
      figure(`AddressSpec created → address in the kernel: p50 of ${RUNS}`, percentile(add, 50), 'ms', {
        op: '<=',
        value: 50,
      });
      figure(`AddressSpec created → address in the kernel: p99 of ${RUNS}`, percentile(add, 99), 'ms', {
        op: '<=',
        value: 50,
      });
      figure(`AddressSpec torn down → address gone: p50 of ${RUNS}`, percentile(del, 50), 'ms');
      figure(`AddressSpec torn down → address gone: p99 of ${RUNS}`, percentile(del, 99), 'ms');
    } finally {
      await env.stop();
      events.close();
    }
  }),
);
