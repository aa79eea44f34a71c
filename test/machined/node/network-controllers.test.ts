// The node's whole network chain against the real kernel, in a namespace of its own: a machine config's
// interfaces become links, addresses and routes; a changed config converges the kernel again; the
// resolvers and hosts land in the etc directory. (DHCP through the chain is tested with dnsmasq in
// test/controllers/network/operator-spec.test.ts, and on a QEMU node in test/e2e.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MachineConfig } from '../../../resources/config/index.js';
import type { Config } from '../../../src/config/index.js';
import { networkControllers } from '../../../src/machined/node/network-controllers.js';
import { CLONE_NEWUTS, unshare } from '../../../src/sys/namespace.js';
import { mintCluster, startRuntime } from '../../controllers/secrets/env.js';
import { scratchDir } from '../../sys/child.js';
import { enterNetns, peerNetns, vethTo } from '../../sys/netns.js';

// biome-ignore lint/suspicious/noExplicitAny: iproute2's JSON
const ipj = (...args: string[]): any[] =>
  JSON.parse(execFileSync('ip', ['-j', ...args], { encoding: 'utf8' }) || '[]');

const eventually = async (what: string, check: () => void, ms = 20_000) => {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (e) {
      if (Date.now() > end) throw new Error(`${what}: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
};

/**
 * withNetwork puts a machine.network section into the config's v1alpha1 document, dropping the generated
 * HostnameConfig (a hostname in both is a conflict, as upstream says).
 */
const withNetwork = (cfg: Config, network: unknown): Config => ({
  documents: cfg.documents
    .filter((d) => d.kind !== 'HostnameConfig')
    .map((d) => {
      if (d.kind !== 'v1alpha1') return d;
      const spec = d.spec as { machine?: Record<string, unknown> };
      return { ...d, spec: { ...spec, machine: { ...spec.machine, network } } } as typeof d;
    }),
});

describe('the node network controllers, config to kernel', () => {
  enterNetns();
  const peer = peerNetns();
  vethTo(peer, 'kv0', 'kv1');
  peer.run('ip', 'addr', 'add', '10.77.0.1/24', 'dev', 'kv1');

  it('converge the kernel to the config, and again when the config changes', async () => {
    unshare(CLONE_NEWUTS); // the hostname controller sets this process's names only
    const etcDir = scratchDir('keel-netetc-');
    const names: string[] = [];
    const env = startRuntime(
      await networkControllers({
        cmdline: '',
        machineIdentity: 'test-node',
        etcDir,
        setHostname: (h) => names.push(h),
        adjustTime: () => {
          throw new Error('the test never sets the clock');
        },
      }),
    );
    onTestFinished(env.stop);
    const cluster = await mintCluster();
    const network = (address: string, mtu: number) => ({
      hostname: 'edge1',
      nameservers: ['10.77.0.53'],
      extraHostEntries: [{ ip: '10.77.0.9', aliases: ['registry'] }],
      interfaces: [
        {
          interface: 'kv0',
          mtu,
          addresses: [address],
          routes: [{ network: '10.78.0.0/16', gateway: '10.77.0.1', metric: 100 }],
        },
      ],
    });
    await env.state.create(
      MachineConfig.new(
        'config',
        'v1alpha1',
        withNetwork(cluster.controlplane, network('10.77.0.2/24', 1400)),
      ),
    );
    const addrs = () =>
      ipj('addr', 'show', 'kv0')[0]?.addr_info?.map((a: { local: string }) => a.local) ?? [];
    await eventually('address', () => expect(addrs()).toContain('10.77.0.2'));
    await eventually('mtu and up', () =>
      expect(ipj('link', 'show', 'kv0')[0]).toMatchObject({ mtu: 1400, operstate: 'UP' }),
    );
    await eventually('route', () =>
      expect(ipj('route', 'show', '10.78.0.0/16')[0]).toMatchObject({
        gateway: '10.77.0.1',
        dev: 'kv0',
        metric: 100,
      }),
    );
    await eventually('resolv.conf', () =>
      expect(readFileSync(join(etcDir, 'resolv.conf'), 'utf8')).toBe('nameserver 10.77.0.53\n'),
    );
    await eventually('hosts', () =>
      expect(readFileSync(join(etcDir, 'hosts'), 'utf8')).toMatch(/^10\.77\.0\.9 +registry$/m),
    );
    await eventually('hostname', () => expect(names.at(-1)).toBe('edge1'));

    // a new address and MTU: the old address goes, the new one comes, the route follows
    const t0 = performance.now();
    await env.state.modify(MachineConfig.new('config', 'v1alpha1'), (r) => {
      r.spec = withNetwork(cluster.controlplane, network('10.77.0.3/24', 1450));
    });
    await eventually('renumbered', () => {
      expect(addrs()).toContain('10.77.0.3');
      expect(addrs()).not.toContain('10.77.0.2');
      expect(ipj('link', 'show', 'kv0')[0].mtu).toBe(1450);
      expect(ipj('route', 'show', '10.78.0.0/16')).toMatchObject([
        { gateway: '10.77.0.1', dev: 'kv0', metric: 100 },
      ]);
    });
    console.log(`config change → kernel converged in ${Math.round(performance.now() - t0)} ms`);
  });
});
