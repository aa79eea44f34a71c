// A node on a network with no DHCP server at all: a static address on the kernel command line, in the
// kernel's own ip= form, is applied by Keel's network controllers, and maintenance mode answers there.
// QEMU's user network always runs a DHCP server, so the NIC is a tap in a namespace of the test's own
// instead: the host side holds 10.0.2.2/24 and a socket on the DHCP server port that only listens, and
// the stock talosctl reaches the guest from inside that namespace (the host's own routes stay untouched).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { type Run, talosctl, talosctlPath } from '../integration/talosctl/talosctl.js';
import { tapNetns } from '../sys/netns.js';
import { artefact, boot, cleanup, ROOT, retry } from './node.js';

const BOOT_MS = 300_000;
const GUEST = '10.0.2.15';

const DUMMY =
  'apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\naddresses:\n  - address: 192.168.50.1/24\n';
const DUMMY_MEMBER = 'apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy1\n';
const VLAN = 'apiVersion: v1alpha1\nkind: VLANConfig\nname: eth0.42\nvlanID: 42\nparent: eth0\n';
const BOND =
  'apiVersion: v1alpha1\nkind: BondConfig\nname: bond0\nlinks:\n  - dummy1\nbondMode: active-backup\n';

// Prints one line per datagram sent to the DHCP server port (DHCPDISCOVER is broadcast from 0.0.0.0:68),
// answers none of them.
const DHCP_LISTENER = `
const s = require('node:dgram').createSocket({ type: 'udp4', reuseAddr: true });
s.on('message', (m, r) => console.log('dhcp datagram of ' + m.length + ' bytes from ' + r.address + ':' + r.port));
s.bind(67, () => console.log('listening'));
`;

afterEach(cleanup);

// made while the file is collected: its teardown runs after afterEach has ended the VM in it
const net = tapNetns('10.0.2.2/24');

const imageCmdline = readFileSync(`${ROOT}/images/cmdline`, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
  .join(' ');

/** works returns what a talosctl run printed, failing the test with its output unless it succeeded. */
const works = (r: Run): string => {
  expect(r.code, r.output).toBe(0);
  return r.stdout;
};

/** spec is the one document of a `get -o yaml` listing that matches `re`. */
const spec = (yaml: string, re: RegExp): string => {
  const docs = yaml.split(/^---$/m).filter((d) => re.test(d));
  expect(docs, yaml).toHaveLength(1);
  return docs[0]!;
};

describe('the kernel command line network', () => {
  it(
    'brings the node up on a static ip= address and hostname on a network without DHCP',
    async () => {
      const bin = talosctlPath();
      // the stock talosctl inside the tap's namespace, where the guest's address is on-link
      const tc = (...args: string[]) =>
        talosctl('ip', ['netns', 'exec', net.name, bin, ...args, '--insecure', '-n', GUEST], {
          timeoutMs: 60_000,
        });
      const dir = mkdtempSync(join(tmpdir(), 'keel-e2e-net-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));

      const dhcp: string[] = [];
      const listener = net.start(process.execPath, ['-e', DHCP_LISTENER]);
      listener.stdout?.setEncoding('utf8').on('data', (d: string) => dhcp.push(...d.split('\n')));
      await retry('the DHCP port listener', async () => expect(dhcp).toContain('listening'), 10_000);

      const vm = boot({
        boot: {
          kind: 'kernel',
          kernel: artefact('vmlinuz'),
          initrd: artefact('initramfs.img'),
          cmdline: `${imageCmdline} ip=${GUEST}::10.0.2.2:255.255.255.0:node1:eth0:off`,
        },
        network: { kind: 'tap', netns: net.name, ifname: net.ifname },
      });
      const started = Date.now();
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      const version = await retry('maintenance version on 10.0.2.15', async () => works(await tc('version')));
      console.log(`talosctl version answered over the tap ${Date.now() - started} ms after QEMU started`);
      expect(version).toMatch(/Server:\n\tNODE:\s+10\.0\.2\.15\n\tTag:\s+v1\.13\.0\+keel/);

      await vm.waitForLine(/assigned address .*"address":"10\.0\.2\.15\/24","link":"eth0"/, {
        timeoutMs: 60_000,
      });
      await vm.waitForLine(/created route .*"gateway":"10\.0\.2\.2"/, { timeoutMs: 60_000 });
      await vm.waitForLine(/setting hostname node1/, { timeoutMs: 60_000 });
      // the address, the default route and the hostname come from the command line's layer
      const address = spec(works(await tc('get', 'addressspecs', '-o', 'yaml')), /address: 10\.0\.2\.15\/24/);
      expect(address).toMatch(/\n\s+linkName: eth0\n/);
      expect(address).toMatch(/\n\s+layer: cmdline\n/);
      const route = spec(works(await tc('get', 'routespecs', '-o', 'yaml')), /gateway: 10\.0\.2\.2\n/);
      expect(route).toMatch(/\n\s+outLinkName: eth0\n/);
      expect(route).toMatch(/\n\s+layer: cmdline\n/);
      expect(works(await tc('get', 'hostnamestatus'))).toMatch(/\sHostnameStatus\s+hostname\s+\d+\s+node1\s/);
      // eth0 is configured by the command line, so no DHCP client runs on it, and none sent a request
      expect(vm.lines.join('\n')).not.toMatch(/starting operator dhcp4\/eth0/);

      // still in maintenance mode, a config of network documents alone makes links of every logical kind
      // (the kernel of the tests' host has no dummy, vlan or bond: Keel's kernel has them all)
      const apply = async (yaml: string) => {
        const file = join(dir, 'config.yaml');
        writeFileSync(file, yaml);
        works(await tc('apply-config', '-f', file));
      };
      const links = async (...names: string[]) => {
        const out = works(await tc('get', 'links'));
        return names.map((n) => out.split('\n').find((l) => new RegExp(`\\sLinkStatus\\s+${n}\\s`).test(l)));
      };
      await apply([DUMMY, DUMMY_MEMBER, VLAN, BOND].join('---\n'));
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
      await apply(DUMMY);
      await retry(
        'logical links removed',
        async () => {
          const [dummy, member, vlan, bond] = await links('dummy0', 'dummy1', 'eth0\\.42', 'bond0');
          expect(dummy).toBeDefined();
          expect([member, vlan, bond]).toEqual([undefined, undefined, undefined]);
        },
        120_000,
      );
      // a config the kernel refuses (a virtio NIC takes no MTU over 65535) is a status with its errno, the
      // rest of the network untouched, and gone once a config no longer asks for it
      await apply([DUMMY, 'apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nmtu: 70000\n'].join('---\n'));
      const refusal = await retry(
        'the refusal shown',
        async () => {
          const line = works(await tc('get', 'kernelrefusals'))
            .split('\n')
            .find((l) => /\sKernelRefusal\s+link\/eth0\s/.test(l));
          expect(line).toMatch(/\sEINVAL\s+\d+\s/);
          return line;
        },
        120_000,
      );
      console.log(`talosctl get kernelrefusals: ${refusal}`);
      expect(works(await tc('version'))).toMatch(/Tag:\s+v1\.13\.0\+keel/);
      await apply(DUMMY);
      await retry(
        'the refusal gone',
        async () => expect(works(await tc('get', 'kernelrefusals'))).not.toMatch(/link\/eth0/),
        120_000,
      );
      expect(vm.lines.join('\n')).not.toMatch(/leaving maintenance mode/);
      expect(dhcp.filter((l) => l.startsWith('dhcp '))).toEqual([]);
    },
    15 * 60_000,
  );
});
