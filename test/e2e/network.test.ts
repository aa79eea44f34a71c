// A node on a network without a DHCP answer for it: a static address on the kernel command line, in the
// kernel's own ip= form, is applied by Keel's network controllers, and maintenance mode answers there.
// QEMU's user network would hand the guest 10.0.2.15 by DHCP; the API is forwarded to 10.0.2.50 only,
// so an answer proves the static address, not a lease.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../api/fixtures.js';
import { talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { freePort } from '../machined/node/harness.js';
import { anonymous, artefact, boot, callUnary, cleanup, client, ROOT, retry, version } from './node.js';

const BOOT_MS = 300_000;

const DUMMY =
  'apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\naddresses:\n  - address: 192.168.50.1/24\n';
const DUMMY_MEMBER = 'apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy1\n';
const VLAN = 'apiVersion: v1alpha1\nkind: VLANConfig\nname: eth0.42\nvlanID: 42\nparent: eth0\n';
const BOND =
  'apiVersion: v1alpha1\nkind: BondConfig\nname: bond0\nlinks:\n  - dummy1\nbondMode: active-backup\n';

/** apply sends a config as talosctl apply-config --insecure does in maintenance mode. */
async function apply(port: number, yaml: string): Promise<void> {
  const m = client('machine.MachineService', port, anonymous());
  await callUnary(m, 'ApplyConfiguration', { data: Buffer.from(yaml), mode: 'AUTO' });
}

afterEach(cleanup);

const imageCmdline = readFileSync(`${ROOT}/images/cmdline`, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
  .join(' ');

describe('the kernel command line network', () => {
  it(
    'brings the node up on a static ip= address and hostname, with no DHCP for it',
    async () => {
      const port = await freePort();
      const bin = talosctlPath();
      const vm = boot({
        boot: {
          kind: 'kernel',
          kernel: artefact('vmlinuz'),
          initrd: artefact('initramfs.img'),
          cmdline: `${imageCmdline} ip=10.0.2.50::10.0.2.2:255.255.255.0:node1:eth0:off`,
        },
        apiPort: port,
        apiGuestAddress: '10.0.2.50',
      });
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      const v = await retry('maintenance Version on 10.0.2.50', () => version(port, anonymous()));
      expect((v.version as Reply).tag).toMatch(/^v1\.13\.0\+keel/);
      await vm.waitForLine(/assigned address .*"address":"10\.0\.2\.50\/24","link":"eth0"/, {
        timeoutMs: 60_000,
      });
      await vm.waitForLine(/created route .*"gateway":"10\.0\.2\.2"/, { timeoutMs: 60_000 });
      await vm.waitForLine(/setting hostname node1/, { timeoutMs: 60_000 });
      const log = vm.lines.join('\n');
      // eth0 is configured by the command line, so no DHCP client runs on it
      expect(log).not.toMatch(/starting operator dhcp4\/eth0/);

      // still in maintenance mode, a config of network documents alone makes links of every logical kind
      // (the kernel of the tests' host has no dummy, vlan or bond: Keel's kernel has them all)
      const links = (...names: string[]) =>
        talosctl(bin, ['get', 'links', '--insecure', '-n', `127.0.0.1:${port}`], { timeoutMs: 60_000 }).then(
          (r) => {
            expect(r.code, r.output).toBe(0);
            return names.map((n) =>
              r.stdout.split('\n').find((l) => new RegExp(`\\sLinkStatus\\s+${n}\\s`).test(l)),
            );
          },
        );
      await apply(port, [DUMMY, DUMMY_MEMBER, VLAN, BOND].join('---\n'));
      await retry(
        'logical links made',
        async () => {
          const [dummy, member, vlan, bond] = await links('dummy0', 'dummy1', 'eth0\\.42', 'bond0');
          expect(dummy).toMatch(/\sether\s+dummy\s/);
          expect(vlan).toMatch(/\sether\s+vlan\s/);
          expect(bond).toMatch(/\sether\s+bond\s/);
          expect(member).toBeDefined();
        },
        120_000,
      );
      // a config without them: each is deleted again, and the node is still in maintenance mode
      await apply(port, DUMMY);
      await retry(
        'logical links removed',
        async () => {
          const [dummy, member, vlan, bond] = await links('dummy0', 'dummy1', 'eth0\\.42', 'bond0');
          expect(dummy).toBeDefined();
          expect([member, vlan, bond]).toEqual([undefined, undefined, undefined]);
        },
        120_000,
      );
      expect(vm.lines.join('\n')).not.toMatch(/leaving maintenance mode/);
    },
    15 * 60_000,
  );
});
