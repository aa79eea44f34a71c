// The install mechanisms' proof: a disk written by src/install from what the ISO carries (/keel/install and
// /boot), laid out as upstream's dual-boot disk images, boots with no ISO attached: under UEFI (OVMF)
// through systemd-boot and the UKI, and under BIOS (SeaBIOS) through GRUB's boot.img, core.img and slot A,
// both to machined's maintenance mode, answering Version.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wireTag } from '../../src/api/version.js';
import { type InstallResult, installToDisk } from '../../src/install/index.js';
import { isSysError } from '../../src/sys/errno.js';
import { LO_FLAGS, loopClear, loopConfigure, loopGetFree } from '../../src/sys/ioctl-loop.js';
import type { Reply } from '../api/fixtures.js';
import { freePort } from '../machined/node/harness.js';
import { anonymous, artefact, boot, cleanup, ROOT, retry, version } from './node.js';

const BOOT_MS = 300_000;
const VERSION = `v${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}`;
const GiB = 1 << 30;

let dir: string;
let disk: string;
let installed: InstallResult;

/** withLoop attaches `file` to a free loop device (partitions scanned) for the length of `fn`. */
async function withLoop<T>(file: string, fn: (dev: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const ctl = openSync('/dev/loop-control', 'r+');
    const n = (() => {
      try {
        return loopGetFree(ctl);
      } finally {
        closeSync(ctl);
      }
    })();
    const fd = openSync(`/dev/loop${n}`, 'r+');
    const backing = openSync(file, 'r+');
    try {
      loopConfigure(fd, { backingFd: backing, flags: LO_FLAGS.PARTSCAN, fileName: file });
    } catch (e) {
      closeSync(fd);
      if (isSysError(e, 'EBUSY') && attempt < 20) continue;
      throw e;
    } finally {
      closeSync(backing);
    }
    try {
      return await fn(`/dev/loop${n}`);
    } finally {
      try {
        loopClear(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
}

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error('needs root: a loop device to install onto');
  dir = mkdtempSync(join(tmpdir(), 'keel-e2e-install-'));
  // the assets as a node finds them on its boot medium
  const iso = artefact('keel.iso');
  const media = join(dir, 'media');
  for (const p of ['/keel/install', '/boot/vmlinuz', '/boot/initramfs'])
    execFileSync('xorriso', ['-osirrox', 'on', '-indev', iso, '-extract', p, join(media, p)], {
      stdio: 'pipe',
    });
  const install = join(media, 'keel/install');
  disk = join(dir, 'disk.raw');
  writeFileSync(disk, '');
  truncateSync(disk, 3 * GiB);
  installed = await withLoop(disk, (dev) =>
    installToDisk({
      disk: dev,
      bootloader: 'dual',
      assets: {
        uki: join(install, 'keel.efi'),
        systemdBoot: join(install, 'systemd-bootx64.efi'),
        bootImg: join(install, 'boot.img'),
        coreImg: join(install, 'core.img'),
        kernel: join(media, 'boot/vmlinuz'),
        initramfs: join(media, 'boot/initramfs'),
      },
      version: VERSION,
      cmdline: readFileSync(join(install, 'cmdline'), 'utf8').trim().split(/\s+/),
      // this host's kernel may lack vfat; a node mounts EFI instead
      efiAccess: 'mtools',
    }),
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(cleanup);

describe('a disk written by the installer, in QEMU without the ISO', () => {
  it('has the dual layout, systemd-boot defaulting to the UKI, GRUB on slot A', () => {
    expect(installed.layout.partitions.map((p) => p.label)).toEqual(['EFI', 'BIOS', 'BOOT', 'META']);
    expect(installed.sdBoot).toEqual({ entry: `Keel-${VERSION}.efi` });
    expect(installed.grubSlot).toBe('A');
  });

  it(
    'boots under UEFI through systemd-boot and the UKI to maintenance mode',
    async () => {
      const port = await freePort();
      const vm = boot({ boot: { kind: 'disk', path: disk }, firmware: 'uefi', apiPort: port });
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      const v = await retry('maintenance Version', () => version(port, anonymous()));
      expect((v.version as Reply).tag).toBe(wireTag(VERSION));
      const text = vm.lines.join('\n');
      // systemd-stub handed the UKI's own command line to the kernel (either of its two echoes of it);
      // GRUB, which would add BOOT_IMAGE=, had no part in it
      expect(text).toMatch(/(Kernel c|C)ommand line: console=.*printk\.devkmsg=on/);
      expect(text).not.toMatch(/BOOT_IMAGE=/);
    },
    15 * 60_000,
  );

  it(
    'boots under BIOS through GRUB from slot A to maintenance mode',
    async () => {
      const port = await freePort();
      const vm = boot({ boot: { kind: 'disk', path: disk }, firmware: 'bios', apiPort: port });
      await vm.waitForLine(/apply-config --insecure/, { timeoutMs: BOOT_MS });
      const v = await retry('maintenance Version', () => version(port, anonymous()));
      expect((v.version as Reply).tag).toBe(wireTag(VERSION));
      // GRUB loaded slot A's kernel with the command line from the medium
      expect(vm.lines.join('\n')).toMatch(
        /(Kernel c|C)ommand line: BOOT_IMAGE=\/A\/vmlinuz .*printk\.devkmsg=on/,
      );
    },
    15 * 60_000,
  );
});
