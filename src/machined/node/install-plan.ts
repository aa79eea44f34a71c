// What the node's Install sequence is asked to do, decided from plain data: the active config's
// machine.install section, what the block resources say (an installed system disk, the disks, the boot
// medium carrying the install assets) and the firmware. As upstream: a node installs itself only when it
// is not installed yet (no META partition on any disk) and its config names a disk.
import type { Config } from '../../config/index.js';
import { v1alpha1Of } from '../../config/index.js';
import type { Bootloader } from '../../install/index.js';

/** ISO_LABEL is the volume id of Keel's ISO, whose /keel/install holds what an install copies. */
export const ISO_LABEL = 'KEEL';

export interface InstallInputs {
  readonly cfg: Config;
  /** the installed system disk's device node, when a disk holds META */
  readonly systemDisk: string | undefined;
  /** the node's whole disks, as device nodes */
  readonly disks: readonly string[];
  /** what machine.install.diskSelector chose among the writable disks (the medium left out), when set */
  readonly selected?: { readonly disk: string | undefined } | { readonly error: string };
  /** the boot medium: the iso9660 volume labelled KEEL, and the whole disk it is on */
  readonly medium: { readonly devPath: string; readonly disk: string } | undefined;
  /** booted through UEFI (/sys/firmware/efi exists) */
  readonly uefi: boolean;
}

export type InstallPlan =
  /** nothing to do: installed already, or no install asked for */
  | { readonly kind: 'skip'; readonly reason: string }
  /** an install was asked for and cannot be done as asked */
  | { readonly kind: 'refuse'; readonly reason: string }
  | {
      readonly kind: 'install';
      readonly disk: string;
      readonly wipe: boolean;
      readonly bootloader: Bootloader;
      readonly medium: string;
    };

/** planInstall decides whether and where the node installs itself. */
export function planInstall(i: InstallInputs): InstallPlan {
  const install = v1alpha1Of(i.cfg)?.machine?.install;
  if (!install || (!install.disk && !install.diskSelector))
    return { kind: 'skip', reason: 'the config has no machine.install disk' };
  if (i.systemDisk) return { kind: 'skip', reason: `installed on ${i.systemDisk}` };
  let disk = install.disk ?? '';
  // as upstream, a selector wins over a disk named beside it
  if (install.diskSelector) {
    const sel = i.selected;
    if (sel && 'error' in sel) return { kind: 'refuse', reason: sel.error };
    if (!sel?.disk)
      return {
        kind: 'refuse',
        reason: `machine.install.diskSelector matches none of the disks (${i.disks.join(', ') || 'none'})`,
      };
    disk = sel.disk;
  }
  if (!i.disks.includes(disk))
    return {
      kind: 'refuse',
      reason: `machine.install.disk ${disk}: no such disk (disks: ${i.disks.join(', ') || 'none'})`,
    };
  if (!i.medium)
    return {
      kind: 'refuse',
      reason: `no boot medium to install from (an iso9660 volume labelled ${ISO_LABEL})`,
    };
  if (i.medium.disk === disk)
    return { kind: 'refuse', reason: `machine.install.disk ${disk} is the boot medium itself` };
  return {
    kind: 'install',
    disk,
    wipe: install.wipe === true,
    bootloader: i.uefi ? 'sd-boot' : 'grub',
    medium: i.medium.devPath,
  };
}
