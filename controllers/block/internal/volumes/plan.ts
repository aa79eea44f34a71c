// The volume manager's decisions as pure functions over plain data, as upstream's volumes package makes
// them: the order volumes are handled in, what locating gives, which disks a selector matches, how big
// a new partition is, and where a failed volume retries from.
import {
  type FilesystemSpec,
  type PartitionSpec,
  type ProvisioningSpec,
  WAVE_SYSTEM_DISK,
} from '../../../../resources/block/volume-config.js';
import { FilesystemType, FilesystemTypes, VolumePhase } from '../../../../resources/block/volume-enums.js';
import type { CelDisk } from '../cel/index.js';
import { compiled } from '../cel/index.js';

/** byProvisioningOrder sorts volumes by wave, then growing ones last (they take what the others left). */
export function byProvisioningOrder(a: ProvisioningSpec, b: ProvisioningSpec): number {
  if (a.wave !== b.wave) return a.wave - b.wave;
  return Number(a.partitionSpec.grow) - Number(b.partitionSpec.grow);
}

export interface LocateInputs {
  /** the locator matched a discovered volume */
  readonly located: boolean;
  /** discovery has run over the devices the node has */
  readonly devicesReady: boolean;
  /** the config says how to provision the volume */
  readonly provisionable: boolean;
  /** every volume of an earlier wave is provisioned */
  readonly previousWaveProvisioned: boolean;
}

export type LocateOutcome = 'located' | 'waiting' | 'missing' | 'provision';

/** locateOutcome is upstream's LocateAndProvision order of checks, before any disk is touched. */
export function locateOutcome(i: LocateInputs): LocateOutcome {
  if (i.located) return 'located';
  if (!i.devicesReady) return 'waiting'; // not found, but not every device has been seen yet
  if (!i.provisionable) return 'missing';
  if (!i.previousWaveProvisioned) return 'waiting';
  return 'provision';
}

/** PROVISIONED_PHASES count as provisioned for the wave that follows. */
const PROVISIONED_PHASES: ReadonlySet<number> = new Set([
  VolumePhase.Provisioned,
  VolumePhase.Prepared,
  VolumePhase.Ready,
  VolumePhase.Missing,
]);

/** waveProvisioned says whether every volume of a wave before `wave` is done provisioning. */
export function waveProvisioned(
  volumes: readonly { readonly wave: number; readonly phase: VolumePhase }[],
  wave: number,
): boolean {
  return volumes.every((v) => v.wave >= wave || PROVISIONED_PHASES.has(v.phase));
}

/**
 * SYSTEM_DISK_REST is the system volume that takes what the system disk has left. The system volumes are
 * declared one by one, so the system disk wave is only known whole once it is declared: a later wave
 * provisioned before would take the free space EPHEMERAL is due.
 */
export const SYSTEM_DISK_REST = 'EPHEMERAL';

/** systemWaveDeclared says whether a volume of `wave` may be provisioned as far as the declared volumes go. */
export const systemWaveDeclared = (declared: ReadonlySet<string>, wave: number): boolean =>
  wave <= WAVE_SYSTEM_DISK || declared.has(SYSTEM_DISK_REST);

/** MAKEABLE: the filesystems the manager can make (none is nothing to make). */
const MAKEABLE: ReadonlySet<number> = new Set([FilesystemType.None, FilesystemType.XFS]);

/** formatRefusal says why a filesystem cannot be made here (mkfs.xfs only); undefined when it can. */
export const formatRefusal = (fs: FilesystemSpec): string | undefined =>
  MAKEABLE.has(fs.type)
    ? undefined
    : `making ${FilesystemTypes.text(fs.type)} filesystems is not supported (only xfs)`;

/** retryPhase is where a failed volume starts again: the phase it failed in. */
export const retryPhase = (phase: VolumePhase, preFailPhase: VolumePhase): VolumePhase =>
  phase === VolumePhase.Failed ? preFailPhase : phase;

export interface DiskCandidate {
  readonly disk: CelDisk;
  readonly systemDisk: boolean;
}

/** matchDisks gives the writable disks the selector matches, in the order given. */
export function matchDisks(selector: string, disks: readonly DiskCandidate[]): CelDisk[] {
  const e = compiled('disk selector', selector);
  return disks
    .filter(
      (d) => !d.disk.readonly && !d.disk.cdrom && e.evaluate({ disk: d.disk, system_disk: d.systemDisk }),
    )
    .map((d) => d.disk);
}

/** GPT_OVERHEAD_SECTORS: the protective MBR, two headers and two 128-entry arrays, as upstream counts them. */
export const GPT_OVERHEAD_SECTORS = 67;

export type SizePlan =
  | { readonly ok: true; readonly size: number }
  | { readonly ok: false; readonly needed: number };

/**
 * partitionSize is the size of a new partition in the largest free extent (`available` bytes) of a disk of
 * `diskSize` bytes: the whole extent unless a maximum caps it. relativeMaxSize is a percentage of the disk
 * used instead of maxSize; negativeMaxSize turns the maximum into what stays free. Below minSize it does
 * not fit, and `needed` says how many bytes it would take.
 */
export function partitionSize(p: PartitionSpec, available: number, diskSize: number): SizePlan {
  let max = p.relativeMaxSize ? Math.floor((diskSize * p.relativeMaxSize) / 100) : p.maxSize;
  let needed = p.minSize;
  if (p.negativeMaxSize && max) {
    needed = p.minSize + max; // the partition, plus what must stay free after it
    max = available > max ? available - max : 0;
    if (max === 0 || max < p.minSize) return { ok: false, needed };
  }
  if (available < p.minSize || available === 0) return { ok: false, needed: Math.max(needed, 1) };
  const size = max === 0 || max >= available ? available : Math.max(max, p.minSize);
  return { ok: true, size };
}

/** growTo is how far a grown partition may reach: all the room after it, capped by maxSize. */
export function growTo(p: PartitionSpec, current: number, room: number, diskSize: number): number {
  const max = p.relativeMaxSize ? Math.floor((diskSize * p.relativeMaxSize) / 100) : p.maxSize;
  const want = current + room;
  if (p.negativeMaxSize || max === 0) return want;
  return Math.max(current, Math.min(want, max));
}

/** partitionPath names partition `n` of a disk as the kernel does (`sda1`, `nvme0n1p1`, `loop0p1`). */
export const partitionPath = (disk: string, n: number): string =>
  /\d$/.test(disk) ? `${disk}p${n}` : `${disk}${n}`;
