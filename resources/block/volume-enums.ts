// The enums of the volume types, as upstream numbers them (enumer's -linecomment text in YAML):
// VolumePhase, VolumeType and FilesystemType.
import { defineEnum, enumOf } from '../network/enum.js';

/** VolumePhase is where a volume is in the manager's phase machine. */
export const VolumePhase = {
  Waiting: 0,
  Failed: 1,
  Missing: 2,
  Located: 3,
  Provisioned: 4,
  Prepared: 5,
  Ready: 6,
  Closed: 7,
} as const;
export type VolumePhase = (typeof VolumePhase)[keyof typeof VolumePhase];

export const VolumePhases = defineEnum('VolumePhase', {
  0: 'waiting',
  1: 'failed',
  2: 'missing',
  3: 'located',
  4: 'provisioned',
  5: 'prepared',
  6: 'ready',
  7: 'closed',
});

/** VolumeType is what a volume is backed by. */
export const VolumeType = {
  Partition: 0,
  Disk: 1,
  Tmpfs: 2,
  Directory: 3,
  Symlink: 4,
  Overlay: 5,
  External: 6,
} as const;
export type VolumeType = (typeof VolumeType)[keyof typeof VolumeType];

export const VolumeTypes = defineEnum('VolumeType', {
  0: 'partition',
  1: 'disk',
  2: 'tmpfs',
  3: 'directory',
  4: 'symlink',
  5: 'overlay',
  6: 'external',
});

/** FilesystemType is the filesystem a volume is formatted with. */
export const FilesystemType = {
  None: 0,
  XFS: 1,
  VFAT: 2,
  EXT4: 3,
  ISO9660: 4,
  Swap: 5,
} as const;
export type FilesystemType = (typeof FilesystemType)[keyof typeof FilesystemType];

export const FilesystemTypes = defineEnum('FilesystemType', {
  0: 'none',
  1: 'xfs',
  2: 'vfat',
  3: 'ext4',
  4: 'iso9660',
  5: 'swap',
});

/** enumField reads a YAML enum (text or number), zero when absent. */
export const enumField = (e: typeof VolumePhases, v: unknown): number =>
  v === undefined || v === null || v === '' ? 0 : enumOf(e, v);
