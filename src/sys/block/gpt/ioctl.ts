// The block-device ioctls a partition table needs: logical sector size, size in bytes, and BLKPG to add,
// resize or delete one kernel partition. The numbers come from the generic
// asm-generic/ioctl.h encoding, which x86_64 and arm64 share; BLKGETSIZE64 encodes sizeof(size_t), 8 on
// both (a 32-bit ABI would need 0x80041272). struct blkpg_ioctl_arg holds a pointer, so its layout is left
// to koffi, which lays it out for the running ABI.
import { check } from '../../errno.js';
import { koffi, libc } from '../../libc.js';

/** _IO(0x12, 104): logical sector size, an int */
export const BLKSSZGET = 0x1268;
/** _IO(0x12, 105): one partition operation */
export const BLKPG = 0x1269;
/** _IOR(0x12, 114, size_t): device size in bytes, a u64 */
export const BLKGETSIZE64 = 0x80081272;

export const BLKPG_OP = { add: 1, delete: 2, resize: 3 } as const;
export type BlkpgOp = keyof typeof BLKPG_OP;

const BlkpgPartition = koffi.struct({
  start: 'int64_t',
  length: 'int64_t',
  pno: 'int',
  devname: koffi.array('char', 64),
  volname: koffi.array('char', 64),
});
const BlkpgIoctlArg = koffi.struct({
  op: 'int',
  flags: 'int',
  datalen: 'int',
  data: koffi.pointer(BlkpgPartition),
});

const ioctlBuf = libc.func('int ioctl(int fd, unsigned long request, _Inout_ uint8_t *arg)');
const ioctlBlkpg = libc.func('ioctl', 'int', ['int', 'unsigned long', koffi.pointer(BlkpgIoctlArg)]);

/** blockSectorSize is the device's logical sector size (BLKSSZGET). */
export function blockSectorSize(fd: number): number {
  const b = Buffer.alloc(4);
  check(ioctlBuf(fd, BLKSSZGET, b), 'ioctl(BLKSSZGET)', fd);
  return b.readInt32LE(0);
}

/** blockSizeBytes is the device's size (BLKGETSIZE64). */
export function blockSizeBytes(fd: number): bigint {
  const b = Buffer.alloc(8);
  check(ioctlBuf(fd, BLKGETSIZE64, b), 'ioctl(BLKGETSIZE64)', fd);
  return b.readBigUInt64LE(0);
}

/** blkpg adds, resizes or deletes kernel partition `number`; offset and length are in bytes. */
export function blkpg(fd: number, op: BlkpgOp, number: number, offset = 0n, length = 0n): void {
  const arg = {
    op: BLKPG_OP[op],
    flags: 0,
    datalen: koffi.sizeof(BlkpgPartition),
    data: { start: offset, length, pno: number, devname: '', volname: '' },
  };
  check(ioctlBlkpg(fd, BLKPG, arg), `ioctl(BLKPG ${op})`, fd, number);
}
