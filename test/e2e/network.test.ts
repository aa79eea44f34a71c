// A node on a network without a DHCP answer for it: a static address on the kernel command line, in the
// kernel's own ip= form, is applied by Keel's network controllers, and maintenance mode answers there.
// QEMU's user network would hand the guest 10.0.2.15 by DHCP; the API is forwarded to 10.0.2.50 only,
// so an answer proves the static address, not a lease.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Reply } from '../api/fixtures.js';
import { freePort } from '../machined/node/harness.js';
import { anonymous, artefact, boot, cleanup, ROOT, retry, version } from './node.js';

const BOOT_MS = 300_000;

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
      const log = vm.lines.join('\n');
      expect(log).toMatch(/assigned address .*"address":"10\.0\.2\.50\/24","link":"eth0"/);
      expect(log).toMatch(/created route .*"gateway":"10\.0\.2\.2"/);
      expect(log).toMatch(/setting hostname node1/);
      // eth0 is configured by the command line, so no DHCP client runs on it
      expect(log).not.toMatch(/starting operator dhcp4\/eth0/);
    },
    15 * 60_000,
  );
});
