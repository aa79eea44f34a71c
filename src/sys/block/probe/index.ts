// src/sys/block/probe: what a block device or image holds (xfs, ext2/3/4, vfat, swap, squashfs,
// Talos META, LUKS, iso9660), found by magic-selected probers chained in upstream go-blockdevice's order.
export { CHAIN, probe } from './chain.js';
export { blockDeviceSize, type ProbeFdOptions, probeFd, probePath } from './device.js';
export {
  isProbeNotFound,
  isProbeUnavailable,
  ProbeError,
  type ProbeErrorCode,
} from './errors.js';
export {
  type DeviceProbe,
  type PartitionProbe,
  probeDevice,
  probeGpt,
  probeSignatures,
  type Signature,
} from './nested.js';
export type { Magic, ProbeResult, Prober, ReadAt, Volume, VolumeType } from './prober.js';
