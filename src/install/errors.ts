// InstallError: why an install to disk was refused or failed, naming the disk (or the asset) at fault.

export type InstallErrorCode =
  /** the disk holds a partition table or a filesystem, and no wipe was asked for (upstream's rule) */
  | 'disk-not-empty'
  /** the disk cannot hold the boot partitions */
  | 'disk-too-small'
  /** a request that makes no sense: a bootloader unknown, GRUB on 4 KiB sectors, a bad version */
  | 'invalid-argument'
  /** a boot asset (UKI, systemd-boot, GRUB's images, kernel, initramfs) is missing or not what it should be */
  | 'bad-asset'
  /** a partition's device node did not appear after the table was written */
  | 'partition-missing'
  /** a tool (mkfs.vfat, mkfs.xfs) failed */
  | 'tool-failed';

export class InstallError extends Error {
  override readonly name = 'InstallError';
  constructor(
    readonly code: InstallErrorCode,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
  }
}

export const isInstallError = (e: unknown, ...codes: InstallErrorCode[]): e is InstallError =>
  e instanceof InstallError && (codes.length === 0 || codes.includes(e.code));
