import { describe, expect, it } from 'vitest';
import type { Config, ConfigDocument } from '../../../src/config/index.js';
import type { InstallConfig } from '../../../src/config/types/v1alpha1/machine.js';
import { type InstallInputs, planInstall } from '../../../src/machined/node/install-plan.js';

const withInstall = (install?: InstallConfig): Config => ({
  documents: [
    {
      kind: 'v1alpha1',
      spec: { machine: { type: 'controlplane', ...(install ? { install } : {}) } },
      lines: {},
    } as unknown as ConfigDocument,
  ],
});

const inputs = (over: Partial<InstallInputs> = {}): InstallInputs => ({
  cfg: withInstall({ disk: '/dev/vda' }),
  systemDisk: undefined,
  disks: ['/dev/vda', '/dev/sr0'],
  medium: { devPath: '/dev/sr0', disk: '/dev/sr0' },
  uefi: true,
  ...over,
});

describe('planInstall', () => {
  it('installs onto the named disk from the medium, sd-boot under UEFI, grub otherwise', () => {
    expect(planInstall(inputs())).toEqual({
      kind: 'install',
      disk: '/dev/vda',
      wipe: false,
      bootloader: 'sd-boot',
      medium: '/dev/sr0',
    });
    expect(
      planInstall(inputs({ uefi: false, cfg: withInstall({ disk: '/dev/vda', wipe: true }) })),
    ).toMatchObject({
      kind: 'install',
      wipe: true,
      bootloader: 'grub',
    });
  });

  it('installs onto the disk the selector chose, which wins over a named disk', () => {
    const cfg = withInstall({ disk: '/dev/vda', diskSelector: { type: 'nvme' } });
    expect(
      planInstall(inputs({ cfg, disks: ['/dev/vda', '/dev/nvme0n1'], selected: { disk: '/dev/nvme0n1' } })),
    ).toMatchObject({ kind: 'install', disk: '/dev/nvme0n1' });
  });

  it('skips an installed node and a config without an install disk', () => {
    expect(planInstall(inputs({ systemDisk: '/dev/vda' }))).toEqual({
      kind: 'skip',
      reason: 'installed on /dev/vda',
    });
    expect(planInstall(inputs({ cfg: withInstall() }))).toMatchObject({ kind: 'skip' });
    expect(planInstall(inputs({ cfg: withInstall({}) }))).toMatchObject({ kind: 'skip' });
  });

  it('refuses what it cannot do as asked, naming why', () => {
    const bySize = withInstall({ diskSelector: { size: '>= 1TB' } });
    expect(planInstall(inputs({ cfg: bySize, selected: { disk: undefined } }))).toEqual({
      kind: 'refuse',
      reason: 'machine.install.diskSelector matches none of the disks (/dev/vda, /dev/sr0)',
    });
    expect(
      planInstall(
        inputs({ cfg: bySize, selected: { error: 'machine.install.diskSelector.type: unsupported' } }),
      ),
    ).toEqual({ kind: 'refuse', reason: 'machine.install.diskSelector.type: unsupported' });
    expect(planInstall(inputs({ cfg: withInstall({ disk: '/dev/sda' }) }))).toEqual({
      kind: 'refuse',
      reason: 'machine.install.disk /dev/sda: no such disk (disks: /dev/vda, /dev/sr0)',
    });
    expect(planInstall(inputs({ medium: undefined }))).toMatchObject({
      kind: 'refuse',
      reason: 'no boot medium to install from (an iso9660 volume labelled KEEL)',
    });
    expect(planInstall(inputs({ medium: { devPath: '/dev/vda', disk: '/dev/vda' } }))).toEqual({
      kind: 'refuse',
      reason: 'machine.install.disk /dev/vda is the boot medium itself',
    });
  });
});
