// The PID-1 entry from sources: the apply-config hint with the node's addresses, the refusal outside PID 1
// and the launcher mode that the single executable uses.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { applyConfigHint, nodeAddresses } from '../../../src/machined/node/console-hint.js';

const run = promisify(execFile);
const REPO = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const ENTRY = 'src/machined/entry.ts';

const iface = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null }) as never;

describe('apply-config console hint', () => {
  it('lists non-loopback IPv4 addresses once each, in interface order', () => {
    const addrs = nodeAddresses({
      lo: [iface('127.0.0.1', 'IPv4', true), iface('::1', 'IPv6', true)],
      eth0: [iface('10.0.2.15', 'IPv4'), iface('fe80::1', 'IPv6')],
      eth1: [iface('192.168.1.7', 'IPv4'), iface('10.0.2.15', 'IPv4')],
    });
    expect(addrs).toEqual(['10.0.2.15', '192.168.1.7']);
  });

  it('names the keelctl command per address, with the port only when it is not 50000', () => {
    expect(applyConfigHint(['10.0.2.15'])).toEqual([
      '[keel] node addresses: 10.0.2.15',
      '[keel] apply a config: keelctl apply-config --insecure --nodes 10.0.2.15 --file controlplane.yaml',
    ]);
    expect(applyConfigHint(['10.0.2.15'], 50001)[1]).toContain('--nodes 10.0.2.15:50001 ');
    expect(applyConfigHint([])).toEqual([
      '[keel] no IPv4 address yet: apply a config with keelctl apply-config --insecure --nodes <node-ip> --file controlplane.yaml',
    ]);
  });

  it('sees this host’s own addresses', () => {
    for (const a of nodeAddresses()) expect(a).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });
});

describe('machined entry', () => {
  it('refuses to run outside PID 1 and points to container mode', async () => {
    const r = await run(process.execPath, ['--import', 'tsx', ENTRY], { cwd: REPO }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(r).toMatchObject({ code: 2 });
    expect((r as { stderr: string }).stderr).toMatch(/runs only as PID 1 .*container mode/);
  });

  it('runs the capability launcher with --cap-launcher', async () => {
    if (process.getuid?.() !== 0)
      throw new Error('this test needs root (dropping a capability needs CAP_SETPCAP)');
    const plan = JSON.stringify({ drop: ['CAP_NET_RAW'] });
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', ENTRY, '--cap-launcher', plan, '--', 'grep', '^CapBnd', '/proc/self/status'],
      { cwd: REPO },
    );
    const bounding = BigInt(`0x${stdout.trim().split(/\s+/)[1]}`);
    expect(bounding & (1n << 13n)).toBe(0n);
    const bad = await run(process.execPath, ['--import', 'tsx', ENTRY, '--cap-launcher', '{}'], {
      cwd: REPO,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 127 });
    expect((bad as { stderr: string }).stderr).toMatch(/^cap-launcher: usage/);
  });
});
