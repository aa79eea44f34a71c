// The install mechanisms on a real disk: a sparse image on a loop device (root needed), judged by sgdisk,
// blkid and the kernel's own mounts of what was written.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execTool } from '../../src/install/disk.js';
import { isInstallError } from '../../src/install/errors.js';
import { mtoolsTree } from '../../src/install/file-tree.js';
import { bootImgCoreLba, coreImgBlocklist, patchCoreImg } from '../../src/install/grub.js';
import { type InstallAssets, installToDisk } from '../../src/install/install.js';
import { decodeMbr, PARTITION_TYPE } from '../../src/sys/block/gpt/index.js';
import { mount, umount } from '../../src/sys/mount.js';
import { attachLoop, sparseImage } from '../sys/block/gpt/loop-device.js';
import { sgdiskInfo, sgdiskVerify } from '../sys/block/gpt/sgdisk.js';

const ROOT = join(import.meta.dirname, '../..');
const GiB = 1 << 30;
let dir: string;
let assets: Required<InstallAssets>;

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error('needs root: loop devices, mkfs and mounts');
  dir = await mkdtemp(join(tmpdir(), 'keel-install-assets-'));
  execFileSync('bash', [join(ROOT, 'scripts/grub-bios.sh'), dir]);
  await writeFile(join(dir, 'keel.efi'), 'MZ a stand-in UKI');
  await writeFile(join(dir, 'vmlinuz'), 'a stand-in kernel');
  await writeFile(join(dir, 'initramfs'), 'a stand-in initramfs');
  await writeFile(join(dir, 'components.sqsh'), 'a stand-in components layer');
  await writeFile(join(dir, 'kubernetes.sqsh'), "a stand-in Kubernetes' layer");
  assets = {
    uki: join(dir, 'keel.efi'),
    systemdBoot: '/usr/lib/systemd/boot/efi/systemd-bootx64.efi',
    bootImg: join(dir, 'boot.img'),
    coreImg: join(dir, 'core.img'),
    kernel: join(dir, 'vmlinuz'),
    initramfs: join(dir, 'initramfs'),
    layers: { components: join(dir, 'components.sqsh'), kubernetes: join(dir, 'kubernetes.sqsh') },
  };
  return () => rm(dir, { recursive: true, force: true });
});

/** mounted mounts a partition read-only for the rest of the test. */
async function mounted(device: string, fstype: string): Promise<string> {
  const at = await mkdtemp(join(tmpdir(), 'keel-install-check-'));
  mount(device, at, fstype, { flags: 1 /* MS_RDONLY */ });
  onTestFinished(async () => {
    umount(at);
    await rmdir(at);
  });
  return at;
}

const blkid = (dev: string) => execFileSync('blkid', ['-p', '-o', 'export', dev], { encoding: 'utf8' });

function sector(path: string, lba: bigint, count = 1): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(512 * count);
    readSync(fd, b, 0, b.length, Number(lba) * 512);
    return b;
  } finally {
    closeSync(fd);
  }
}

describe('installToDisk on a loop device', () => {
  it('dual: GPT in upstream order, systemd-boot and the UKI on EFI, GRUB in the MBR, BIOS and BOOT, the layer on BOOT', async () => {
    const loop = attachLoop(sparseImage(2 * GiB));
    const r = await installToDisk({
      disk: loop.path,
      bootloader: 'dual',
      assets,
      version: 'v0.1.0',
      cmdline: ['console=ttyS0', 'printk.devkmsg=on'],
      efiAccess: 'mtools',
    });
    expect(r.wiped).toBe(false);
    expect(r.sdBoot).toEqual({ entry: 'Keel-v0.1.0.efi' });
    expect(r.grubSlot).toBe('A');

    const verify = sgdiskVerify(loop.path);
    expect(verify.clean, verify.text).toBe(true);
    const parts = [1, 2, 3, 4].map((n) => sgdiskInfo(loop.path, n));
    expect(parts.map((p) => [p.name, p.type])).toEqual([
      ['EFI', PARTITION_TYPE.efiSystem],
      ['BIOS', PARTITION_TYPE.biosBoot],
      ['BOOT', PARTITION_TYPE.linuxFilesystem],
      ['META', PARTITION_TYPE.linuxFilesystem],
    ]);
    expect(parts.map((p) => p.lastLba - p.firstLba + 1n)).toEqual([524288n, 2048n, 1048576n, 2048n]);
    expect(parts[1]!.attributes).toBe(4n); // legacy BIOS bootable
    expect(loop.hasPartition(5)).toBe(false);

    expect(blkid(`${loop.path}p1`)).toMatch(/TYPE=vfat[\s\S]*|LABEL=EFI/);
    expect(blkid(`${loop.path}p1`)).toMatch(/LABEL=EFI/);
    expect(blkid(`${loop.path}p3`)).toMatch(/LABEL=BOOT/);
    expect(blkid(`${loop.path}p3`)).toMatch(/TYPE=xfs/);

    // read back with mtools: this host's kernel may have no vfat to mount it with
    const efi = mtoolsTree(`${loop.path}p1`, execTool);
    expect(await efi.list('EFI/BOOT')).toEqual(['BOOTX64.EFI']);
    const bootx64 = join(dir, 'BOOTX64.EFI');
    execFileSync('mcopy', ['-n', '-i', `${loop.path}p1`, '::/EFI/BOOT/BOOTX64.EFI', bootx64], {
      env: { ...process.env, MTOOLS_SKIP_CHECK: '1' },
      stdio: 'pipe',
    });
    expect((await readFile(bootx64)).equals(await readFile(assets.systemdBoot))).toBe(true);
    expect(await efi.readText('EFI/Linux/Keel-v0.1.0.efi')).toBe('MZ a stand-in UKI');
    expect(await efi.readText('loader/loader.conf')).toBe('timeout 3\ndefault Keel-v0.1.0.efi\n');
    // dual keeps the layers on BOOT, beside GRUB's slots: EFI has none
    expect(await efi.list('keel')).toEqual([]);
    execFileSync('fsck.vfat', ['-n', `${loop.path}p1`], { stdio: 'pipe' });

    const boot = await mounted(`${loop.path}p3`, 'xfs');
    expect((await readdir(boot)).sort()).toEqual(['A', 'grub', 'keel']);
    expect((await readdir(join(boot, 'keel'))).sort()).toEqual([
      'components-v0.1.0.sqsh',
      'kubernetes-v0.1.0.sqsh',
    ]);
    expect(await readFile(join(boot, 'keel/components-v0.1.0.sqsh'), 'utf8')).toBe(
      'a stand-in components layer',
    );
    expect(await readFile(join(boot, 'keel/kubernetes-v0.1.0.sqsh'), 'utf8')).toBe(
      "a stand-in Kubernetes' layer",
    );
    expect(await readFile(join(boot, 'A/vmlinuz'), 'utf8')).toBe('a stand-in kernel');
    expect(await readFile(join(boot, 'A/initramfs'), 'utf8')).toBe('a stand-in initramfs');
    const cfg = await readFile(join(boot, 'grub/grub.cfg'), 'utf8');
    expect(cfg).toContain('set default="A - Keel v0.1.0"');
    expect(cfg).toContain("\tlinux /A/vmlinuz 'console=ttyS0' 'printk.devkmsg=on'\n\tinitrd /A/initramfs\n");

    // LBA 0: GRUB's boot code pointing at the BIOS partition, the protective MBR still whole
    const lba0 = sector(loop.path, 0n);
    expect(decodeMbr(lba0).kind).toBe('protective');
    expect(bootImgCoreLba(lba0)).toBe(parts[1]!.firstLba);
    const boot0 = await readFile(assets.bootImg);
    expect(lba0.subarray(0x68, 0x1b8)).toEqual(boot0.subarray(0x68, 0x1b8));
    // core.img in the BIOS partition, its blocklist pointing right after its first sector
    const core = patchCoreImg(await readFile(assets.coreImg), parts[1]!.firstLba);
    const written = sector(loop.path, parts[1]!.firstLba, core.length / 512);
    expect(written.equals(core)).toBe(true);
    expect(coreImgBlocklist(written).start).toBe(parts[1]!.firstLba + 1n);
    // META is zeroes
    expect(sector(loop.path, parts[3]!.firstLba, 2048).every((b) => b === 0)).toBe(true);
  }, 120_000);

  it('refuses a disk that is not empty, naming it, and installs over it when asked to wipe', async () => {
    const loop = attachLoop(sparseImage(GiB));
    execFileSync('mkfs.xfs', ['-q', loop.path]);
    const e = await installToDisk({
      disk: loop.path,
      bootloader: 'sd-boot',
      assets,
      version: 'v1',
      cmdline: [],
    }).catch((x) => x);
    expect(isInstallError(e, 'disk-not-empty')).toBe(true);
    expect((e as Error).message).toBe(
      `${loop.path} is not empty: it holds a xfs volume (ask for a wipe to install over it)`,
    );
    // nothing was written
    expect(blkid(loop.path)).toMatch(/TYPE=xfs/);

    const r = await installToDisk({
      disk: loop.path,
      bootloader: 'sd-boot',
      assets,
      version: 'v1',
      cmdline: [],
      wipe: true,
      efiAccess: 'mtools',
    });
    expect(r.wiped).toBe(true);
    expect(r.layout.partitions.map((p) => p.label)).toEqual(['EFI', 'META']);
    expect(sgdiskVerify(loop.path).clean).toBe(true);
    // sd-boot keeps both layers on EFI, beside the UKI
    expect((await mtoolsTree(`${loop.path}p1`, execTool).list('keel')).sort()).toEqual([
      'components-v1.sqsh',
      'kubernetes-v1.sqsh',
    ]);

    // a GPT counts as content too
    const again = await installToDisk({
      disk: loop.path,
      bootloader: 'sd-boot',
      assets,
      version: 'v1',
      cmdline: [],
    }).catch((x) => x);
    expect((again as Error).message).toMatch(/holds a GPT with 2 partition\(s\)/);
  }, 120_000);

  it('refuses to start without the assets its bootloader needs, before touching the disk', async () => {
    const e = await installToDisk({
      disk: '/dev/nonexistent',
      bootloader: 'dual',
      assets: { uki: assets.uki, systemdBoot: assets.systemdBoot },
      version: 'v1',
      cmdline: [],
    }).catch((x) => x);
    expect(isInstallError(e, 'bad-asset')).toBe(true);
    expect((e as Error).message).toMatch(/dual needs the assets bootImg, coreImg, kernel, initramfs/);
  });
});
