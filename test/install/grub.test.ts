import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { isInstallError } from '../../src/install/errors.js';
import { dirTree } from '../../src/install/file-tree.js';
import {
  bootImgCoreLba,
  coreImgBlocklist,
  grubConfig,
  grubDefaultSlot,
  grubVersions,
  installGrubBoot,
  patchBootImg,
  patchCoreImg,
} from '../../src/install/grub.js';
import { encodeProtectiveMbr } from '../../src/sys/block/gpt/index.js';

const ROOT = join(import.meta.dirname, '../..');
let bootImg: Buffer;
let coreImg: Buffer;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'keel-grub-'));
  try {
    execFileSync('bash', [join(ROOT, 'scripts/grub-bios.sh'), dir]);
    bootImg = await readFile(join(dir, 'boot.img'));
    coreImg = await readFile(join(dir, 'core.img'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describe('patchBootImg', () => {
  it("is boot.img's code pointing at core.img, with the protective MBR's signature and entry kept", () => {
    const mbr = encodeProtectiveMbr(4_000_000n);
    mbr.writeUInt32LE(0xdeadbeef, 0x1b8); // a disk signature to keep
    const out = patchBootImg(bootImg, mbr, 2048n + 256n * 2048n);
    expect(bootImgCoreLba(out)).toBe(526336n);
    expect(out.subarray(0x1b8, 0x200)).toEqual(mbr.subarray(0x1b8, 0x200));
    // the jump over the boot-drive check is gone (two NOPs), the boot drive is the BIOS's (0xff)
    expect([out[0x66], out[0x67]]).toEqual([0x90, 0x90]);
    expect(out[0x64]).toBe(0xff);
    // the rest of the code is boot.img's own
    expect(out.subarray(0x68, 0x1b8)).toEqual(bootImg.subarray(0x68, 0x1b8));
    expect(out.subarray(0, 3)).toEqual(bootImg.subarray(0, 3));
  });

  it('refuses a boot.img that is not one sector ending in 55AA', () => {
    const e = (() => {
      try {
        patchBootImg(Buffer.alloc(512), encodeProtectiveMbr(100n), 34n);
      } catch (x) {
        return x;
      }
    })();
    expect(isInstallError(e, 'bad-asset')).toBe(true);
  });
});

describe('patchCoreImg', () => {
  it('pads core.img to whole sectors and points its blocklist at the sectors after the first', () => {
    const out = patchCoreImg(coreImg, 526336n);
    expect(out.length % 512).toBe(0);
    expect(out.length - coreImg.length).toBeLessThan(512);
    const sectors = out.length / 512;
    expect(coreImgBlocklist(out)).toEqual({ start: 526337n, sectors: sectors - 1, segment: 0x820 });
    // only the blocklist's start and length changed
    expect(out.subarray(512, coreImg.length)).toEqual(coreImg.subarray(512));
    expect(out.subarray(0, 500)).toEqual(coreImg.subarray(0, 500));
  });

  it('refuses a file whose first sector is not diskboot.img', () => {
    const e = (() => {
      try {
        patchCoreImg(Buffer.alloc(4096), 34n);
      } catch (x) {
        return x;
      }
    })();
    expect(isInstallError(e, 'bad-asset')).toBe(true);
    expect((e as Error).message).toMatch(/not diskboot\.img/);
  });
});

describe('grubConfig', () => {
  const cmdline = ['console=ttyS0', "it's"];

  it("is upstream's: default and fallback by entry name, one entry per slot with its kernel and initramfs", () => {
    const cfg = grubConfig({
      default: 'B',
      entries: [
        { slot: 'B', version: 'v2', cmdline },
        { slot: 'A', version: 'v1', cmdline: ['console=tty0'] },
      ],
    });
    expect(cfg).toContain('set default="B - Keel v2"\nset fallback="A - Keel v1"\nset timeout=3\n');
    expect(cfg).toContain(
      `menuentry "A - Keel v1" {\n\tlinux /A/vmlinuz 'console=tty0'\n\tinitrd /A/initramfs\n}\n\nmenuentry "B - Keel v2" {\n\tlinux /B/vmlinuz 'console=ttyS0' 'it'\\''s'\n\tinitrd /B/initramfs\n}\n`,
    );
    expect(cfg).toContain('terminal_output serial console');
    expect(grubDefaultSlot(cfg)).toBe('B');
  });

  it('has no fallback with one slot, and refuses a default without an entry', () => {
    const cfg = grubConfig({ default: 'A', entries: [{ slot: 'A', version: 'v1', cmdline }] });
    expect(cfg).not.toContain('set fallback');
    expect(() => grubConfig({ default: 'B', entries: [{ slot: 'A', version: 'v1', cmdline }] })).toThrow(
      /no entry for the default slot B/,
    );
  });
});

describe('installGrubBoot', () => {
  it('writes slot A first, then flips to B keeping A (its version and command line) as the fallback', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keel-grubboot-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const root = join(dir, 'boot');
    const kernel = join(dir, 'vmlinuz');
    const initramfs = join(dir, 'initramfs');
    await writeFile(kernel, 'kernel 1');
    await writeFile(initramfs, 'initramfs 1');
    const assets = { kernel, initramfs };
    expect(await installGrubBoot(dirTree(root), assets, { version: 'v1', cmdline: ["a'b", 'c'] })).toBe('A');
    expect(await readFile(join(root, 'A/vmlinuz'), 'utf8')).toBe('kernel 1');
    expect(await readFile(join(root, 'A/initramfs'), 'utf8')).toBe('initramfs 1');
    const first = await readFile(join(root, 'grub/grub.cfg'), 'utf8');
    expect(first).toContain('set default="A - Keel v1"');

    await writeFile(kernel, 'kernel 2');
    expect(await installGrubBoot(dirTree(root), assets, { version: 'v2', cmdline: ['d'] })).toBe('B');
    expect(await readFile(join(root, 'B/vmlinuz'), 'utf8')).toBe('kernel 2');
    expect(await readFile(join(root, 'A/vmlinuz'), 'utf8')).toBe('kernel 1');
    const second = await readFile(join(root, 'grub/grub.cfg'), 'utf8');
    expect(second).toBe(
      grubConfig({
        default: 'B',
        entries: [
          { slot: 'B', version: 'v2', cmdline: ['d'] },
          { slot: 'A', version: 'v1', cmdline: ["a'b", 'c'] },
        ],
      }),
    );
    expect((await readdir(join(root, 'grub'))).sort()).toEqual(['grub.cfg']);
    // the versions its slots boot, which keep their components layers
    expect(grubVersions(first)).toEqual(['v1']);
    expect(grubVersions(second)).toEqual(['v1', 'v2']);
  });
});
