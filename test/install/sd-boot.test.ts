import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { execTool } from '../../src/install/disk.js';
import { isInstallError } from '../../src/install/errors.js';
import { dirTree, type FileTree, mtoolsTree } from '../../src/install/file-tree.js';
import {
  installSdBoot,
  loaderConf,
  loaderDefault,
  planUkiSlots,
  ukiFileName,
} from '../../src/install/sd-boot.js';

describe('UKI slots', () => {
  it('names a UKI for its version, and refuses a version that is no file name', () => {
    expect(ukiFileName('v0.1.0')).toBe('Keel-v0.1.0.efi');
    expect(() => ukiFileName('../x')).toThrow(/letters, digits/);
    expect(
      isInstallError(
        (() => {
          try {
            ukiFileName('a b');
          } catch (e) {
            return e;
          }
        })(),
        'invalid-argument',
      ),
    ).toBe(true);
  });

  it('a fresh EFI partition: the new UKI alone', () => {
    expect(planUkiSlots([], undefined, 'v1')).toEqual({ write: 'Keel-v1.efi', remove: [] });
  });

  it('keeps the current UKI as the previous slot and removes every other Keel UKI', () => {
    const s = planUkiSlots(['Keel-v1.efi', 'Keel-v2.efi', 'other.efi'], 'Keel-v2.efi', 'v3');
    expect(s).toEqual({ write: 'Keel-v3.efi', previous: 'Keel-v2.efi', remove: ['Keel-v1.efi'] });
  });

  it('a current default that is not on the disk keeps nothing', () => {
    expect(planUkiSlots(['Keel-v1.efi'], 'Keel-v9.efi', 'v2')).toEqual({
      write: 'Keel-v2.efi',
      remove: ['Keel-v1.efi'],
    });
  });

  it('the same version again gets a ~N suffix, compared without case as FAT does', () => {
    expect(planUkiSlots(['KEEL-V1.EFI'], 'Keel-v1.efi', 'v1')).toEqual({
      write: 'Keel-v1~1.efi',
      previous: 'Keel-v1.efi',
      remove: [],
    });
    expect(planUkiSlots(['Keel-v1~1.efi', 'Keel-v1.efi'], 'Keel-v1~1.efi', 'v1')).toMatchObject({
      write: 'Keel-v1.efi',
      remove: ['Keel-v1.efi'],
    });
  });
});

describe('loader.conf', () => {
  it('names the timeout and the default entry, and reads the default back', () => {
    const c = loaderConf('Keel-v1.efi');
    expect(c).toBe('timeout 3\ndefault Keel-v1.efi\n');
    expect(loaderDefault(c)).toBe('Keel-v1.efi');
    expect(loaderDefault('timeout 10\n')).toBeUndefined();
  });
});

const trees: readonly [string, (dir: string) => Promise<FileTree>][] = [
  [
    'a mounted directory',
    async (dir) => {
      await mkdir(join(dir, 'efi'));
      return dirTree(join(dir, 'efi'));
    },
  ],
  [
    'a FAT image through mtools',
    async (dir) => {
      const img = join(dir, 'efi.img');
      execFileSync('mkfs.vfat', ['-C', '-F', '32', img, String(64 * 1024)], { stdio: 'ignore' });
      return mtoolsTree(img, execTool);
    },
  ],
];

describe.each(trees)('installSdBoot on %s', (_, makeTree) => {
  async function scratch(): Promise<{ efi: FileTree; sdBoot: string; uki: (v: string) => Promise<string> }> {
    const dir = await mkdtemp(join(tmpdir(), 'keel-sdboot-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const sdBoot = join(dir, 'systemd-bootx64.efi');
    await writeFile(sdBoot, 'MZ sd-boot');
    const uki = async (v: string) => {
      const f = join(dir, `uki-${v}`);
      await writeFile(f, `MZ uki ${v}`);
      return f;
    };
    return { efi: await makeTree(dir), sdBoot, uki };
  }

  it('writes the boot manager, the UKI and loader.conf; a second install keeps the first as previous', async () => {
    const { efi, sdBoot, uki } = await scratch();
    const first = await installSdBoot(efi, { systemdBoot: sdBoot, uki: await uki('v1') }, 'v1');
    expect(first).toEqual({ entry: 'Keel-v1.efi' });
    expect(await efi.readText('EFI/BOOT/BOOTX64.EFI')).toBe('MZ sd-boot');
    expect(await efi.readText('EFI/Linux/Keel-v1.efi')).toBe('MZ uki v1');
    expect(await efi.readText('loader/loader.conf')).toBe('timeout 3\ndefault Keel-v1.efi\n');

    expect(await installSdBoot(efi, { systemdBoot: sdBoot, uki: await uki('v2') }, 'v2')).toEqual({
      entry: 'Keel-v2.efi',
      previous: 'Keel-v1.efi',
    });
    await installSdBoot(efi, { systemdBoot: sdBoot, uki: await uki('v3') }, 'v3');
    // exactly two UKIs, as upstream keeps: the new default and the one it replaced
    expect((await efi.list('EFI/Linux')).sort()).toEqual(['Keel-v2.efi', 'Keel-v3.efi']);
    expect(await efi.readText('EFI/Linux/Keel-v3.efi')).toBe('MZ uki v3');
    expect(loaderDefault((await efi.readText('loader/loader.conf'))!)).toBe('Keel-v3.efi');
    expect(await efi.list('loader')).toEqual(['loader.conf']);
    expect((await efi.list('')).sort()).toEqual(['EFI', 'loader']);
  });

  it('names a missing asset', async () => {
    const { efi, sdBoot } = await scratch();
    const e = await installSdBoot(efi, { systemdBoot: sdBoot, uki: '/nonexistent/uki.efi' }, 'v1').catch(
      (x) => x,
    );
    expect(isInstallError(e, 'bad-asset')).toBe(true);
    expect((e as Error).message).toMatch(/UKI: \/nonexistent\/uki\.efi does not exist/);
  });
});
