// Loop devices: LOOP_CTL_GET_FREE on /dev/loop-control and LOOP_CONFIGURE (fd, flags, offset in one ioctl).
import { check } from './errno.js';
import { libc } from './libc.js';

export const LOOP_SET_FD = 0x4c00;
export const LOOP_CLR_FD = 0x4c01;
export const LOOP_SET_STATUS64 = 0x4c04;
export const LOOP_GET_STATUS64 = 0x4c05;
export const LOOP_CONFIGURE = 0x4c0a;
export const LOOP_CTL_ADD = 0x4c80;
export const LOOP_CTL_REMOVE = 0x4c81;
export const LOOP_CTL_GET_FREE = 0x4c82;

/** LO_FLAGS_* */
export const LO_FLAGS = { READ_ONLY: 1, AUTOCLEAR: 4, PARTSCAN: 8, DIRECT_IO: 16 } as const;

/** Offsets in struct loop_info64 (232 bytes) and struct loop_config (304 bytes). */
export const LOOP_INFO64 = {
  size: 232,
  offset: 24,
  sizelimit: 32,
  number: 40,
  flags: 52,
  fileName: 56,
} as const;
export const LOOP_CONFIG = { size: 304, fd: 0, blockSize: 4, info: 8 } as const;

const ioctlInt = libc.func('int ioctl(int fd, unsigned long request, long arg)');
const ioctlPtr = libc.func('int ioctl(int fd, unsigned long request, _Inout_ uint8_t *arg)');

/** ioctl with an integer argument. */
export function ioctl(fd: number, request: number, arg = 0): number {
  return check(ioctlInt(fd, request, arg), 'ioctl', fd, `0x${request.toString(16)}`);
}

/** ioctlBuffer passes a struct (a Buffer) in and out. */
export function ioctlBuffer(fd: number, request: number, arg: Buffer): number {
  return check(ioctlPtr(fd, request, arg), 'ioctl', fd, `0x${request.toString(16)}`);
}

/** loopGetFree asks /dev/loop-control (an open fd) for a free loop device number, creating one if needed. */
export const loopGetFree = (controlFd: number): number => ioctl(controlFd, LOOP_CTL_GET_FREE);

export interface LoopConfig {
  /** backing file, opened by the caller; keep it open until the loop is configured */
  backingFd: number;
  /** LO_FLAGS_* */
  flags?: number;
  offset?: bigint;
  sizeLimit?: bigint;
  blockSize?: number;
  /** shown by LOOP_GET_STATUS64 and losetup; the kernel does not fill it in from the fd */
  fileName?: string;
}

/** encodeLoopConfig lays out struct loop_config. */
export function encodeLoopConfig(c: LoopConfig): Buffer {
  const b = Buffer.alloc(LOOP_CONFIG.size);
  b.writeUInt32LE(c.backingFd, LOOP_CONFIG.fd);
  b.writeUInt32LE(c.blockSize ?? 0, LOOP_CONFIG.blockSize);
  b.writeBigUInt64LE(c.offset ?? 0n, LOOP_CONFIG.info + LOOP_INFO64.offset);
  b.writeBigUInt64LE(c.sizeLimit ?? 0n, LOOP_CONFIG.info + LOOP_INFO64.sizelimit);
  b.writeUInt32LE(c.flags ?? 0, LOOP_CONFIG.info + LOOP_INFO64.flags);
  if (c.fileName) b.write(c.fileName.slice(0, 63), LOOP_CONFIG.info + LOOP_INFO64.fileName, 'utf8');
  return b;
}

/** loopConfigure binds a backing file to an open loop device fd in one call. */
export function loopConfigure(loopFd: number, c: LoopConfig): void {
  ioctlBuffer(loopFd, LOOP_CONFIGURE, encodeLoopConfig(c));
}

export interface LoopStatus {
  number: number;
  flags: number;
  offset: bigint;
  sizeLimit: bigint;
  /** the first 63 bytes of the backing file's name */
  fileName: string;
}

/** loopStatus reads LOOP_GET_STATUS64. */
export function loopStatus(loopFd: number): LoopStatus {
  const b = Buffer.alloc(LOOP_INFO64.size);
  ioctlBuffer(loopFd, LOOP_GET_STATUS64, b);
  const name = b.subarray(LOOP_INFO64.fileName, LOOP_INFO64.fileName + 64);
  return {
    number: b.readUInt32LE(LOOP_INFO64.number),
    flags: b.readUInt32LE(LOOP_INFO64.flags),
    offset: b.readBigUInt64LE(LOOP_INFO64.offset),
    sizeLimit: b.readBigUInt64LE(LOOP_INFO64.sizelimit),
    fileName: name.subarray(0, Math.max(0, name.indexOf(0))).toString('utf8'),
  };
}

/** loopClear detaches the backing file. */
export const loopClear = (loopFd: number): void => {
  ioctl(loopFd, LOOP_CLR_FD);
};
