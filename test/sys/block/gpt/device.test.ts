import { spawnSync } from 'node:child_process';
import { closeSync, openSync, truncateSync, writeSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { diskGeometry, readGpt, wipeGpt, writeGpt } from '../../../../src/sys/block/gpt/device.js';
import { GptError } from '../../../../src/sys/block/gpt/errors.js';
import {
  addPartition,
  createTable,
  findPartition,
  type GptTable,
  growLastPartition,
} from '../../../../src/sys/block/gpt/table.js';
import { PARTITION_TYPE } from '../../../../src/sys/block/gpt/types.js';
import { installerLayout, SMALL, UPSTREAM } from './layouts.js';
import { attachLoop, sparseImage } from './loop-device.js';
import { sgdisk, sgdiskInfo, sgdiskPrint, sgdiskVerify } from './sgdisk.js';

const MiB = 1 << 20;
const GiB = 1 << 30;

function openImage(file: string): number {
  const fd = openSync(file, 'r+');
  onTestFinished(() => closeSync(fd));
  return fd;
}

async function rejection(p: Promise<unknown>): Promise<GptError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GptError) return e;
    throw e;
  }
  throw new Error('did not reject');
}

/** expectSgdiskSees holds sgdisk's view of `disk` to the model, partition by partition. */
function expectSgdiskSees(disk: string, t: GptTable): void {
  const print = sgdiskPrint(disk);
  expect(print.diskGuid).toBe(t.diskGuid);
  expect([print.firstUsable, print.lastUsable]).toEqual([t.firstUsableLba, t.lastUsableLba]);
  expect(print.numbers).toEqual(t.partitions.map((p) => p.number));
  for (const p of t.partitions) expect(sgdiskInfo(disk, p.number)).toEqual(p);
}

const blkidFinds = (disk: string) => spawnSync('blkid', ['-p', disk], { encoding: 'utf8' }).status === 0;

describe('tables on image files, judged by sgdisk', () => {
  it.each([
    ['64 MiB', 64 * MiB, SMALL],
    ['2 GiB', 2 * GiB, UPSTREAM],
  ])('writes the installer’s layout on a %s image that sgdisk verifies clean', async (_, size, sizes) => {
    const file = sparseImage(size);
    const fd = openImage(file);
    const g = await diskGeometry(fd);
    expect(g).toEqual({
      sectorSize: 512,
      diskSectors: BigInt(size / 512),
      sizeBytes: BigInt(size),
      blockDevice: false,
    });
    const t = installerLayout(g.diskSectors, 512, sizes);
    const res = await writeGpt(fd, t);
    expect(res.kernel).toBeUndefined();

    const verdict = sgdiskVerify(file);
    expect(verdict.text).not.toMatch(/Caution/); // every partition ends on a 1 MiB boundary, as upstream's do
    expect(verdict.clean, verdict.text).toBe(true);
    expectSgdiskSees(file, t);
    expect(sgdisk('-A', '2:show', file)).toContain('2:2:1 (legacy BIOS bootable)');

    const back = await readGpt(fd);
    expect(back.source).toBe('primary');
    expect(back.problems).toEqual([]);
    expect(back.mbr).toEqual({ kind: 'protective', bootable: true });
    expect(back.table).toEqual(t);
  });

  it('reads a table sgdisk made, field for field, and keeps its layout when it adds to it', async () => {
    const file = sparseImage(64 * MiB);
    sgdisk(
      '-U',
      'D815C311-BDED-43FE-A91A-DCBE0D8025D5',
      ...['-n', '1:0:+10M', '-t', '1:ef00', '-c', '1:EFI'],
      ...['-n', '2:0:+1M', '-t', '2:ef02', '-c', '2:BIOS', '-A', '2:set:2'],
      ...['-n', '5:0:+20M', '-t', '5:8300', '-c', '5:BOOT', '-u', '5:3D0FE86B-7791-4659-B564-FC49A542866D'],
      file,
    );
    const fd = openImage(file);
    const got = await readGpt(fd);
    expect(got.source).toBe('primary');
    expect(got.problems).toEqual([]);
    expect(got.mbr.kind).toBe('protective');
    expect(got.table.firstUsableLba).toBe(34n); // sgdisk's, not upstream's rounded one
    expect(got.table.partitions.map((p) => p.number)).toEqual([1, 2, 5]);
    expectSgdiskSees(file, got.table);
    expect(findPartition(got.table, 2).attributes).toBe(4n);
    expect(findPartition(got.table, 5).guid).toBe('3D0FE86B-7791-4659-B564-FC49A542866D');

    const more = addPartition(got.table, {
      name: 'STATE',
      size: BigInt(8 * MiB),
      type: PARTITION_TYPE.linuxFilesystem,
    });
    expect(more.partition).toMatchObject({ number: 3, firstLba: 65536n });
    await writeGpt(fd, more.table);
    const verdict = sgdiskVerify(file);
    expect(verdict.clean, verdict.text).toBe(true);
    expectSgdiskSees(file, more.table);
  });

  it('grows the last partition after the image grew, as sgdisk -e and a resize would', async () => {
    const file = sparseImage(64 * MiB);
    const fd = openImage(file);
    const small = installerLayout((await diskGeometry(fd)).diskSectors, 512, SMALL);
    await writeGpt(fd, small);
    truncateSync(file, 128 * MiB);

    expect(sgdiskVerify(file).text).toMatch(/secondary header's self-pointer/); // what sgdisk -e would fix
    const read = await readGpt(fd);
    expect(read.problems).toEqual([
      "the backup header is at LBA 131071, not at the disk's last LBA 262143: the disk grew (resizeDisk moves it)",
    ]);
    const grown = growLastPartition(read.table, read.geometry.diskSectors);
    await writeGpt(fd, grown);

    const verdict = sgdiskVerify(file);
    expect(verdict.clean, verdict.text).toBe(true);
    expect(sgdiskInfo(file, 6)).toMatchObject({ name: 'EPHEMERAL', lastLba: 260095n });
    expectSgdiskSees(file, grown);
    expect((await readGpt(fd)).problems).toEqual([]);
  });

  it('falls back to the backup when the primary is damaged, and a write repairs it', async () => {
    const file = sparseImage(64 * MiB);
    const fd = openImage(file);
    const t = installerLayout(131072n, 512, SMALL);
    await writeGpt(fd, t);
    writeSync(fd, Buffer.from('scribble'), 0, 8, 512 + 24); // inside the primary header: its CRC fails

    expect(sgdiskVerify(file).clean).toBe(false);
    const read = await readGpt(fd);
    expect(read.source).toBe('backup');
    expect(read.problems[0]).toMatch(/^primary header \(LBA 1\): header CRC is/);
    expect(read.table).toEqual(t);

    await writeGpt(fd, read.table);
    expect(sgdiskVerify(file).clean).toBe(true);
    expect((await readGpt(fd)).source).toBe('primary');
  });

  it('says when neither copy is valid', async () => {
    const file = sparseImage(64 * MiB);
    const fd = openImage(file);
    const e = await rejection(readGpt(fd));
    expect(e.code).toBe('no-table');
    expect(e.message).toBe(
      'no valid GPT: primary header (LBA 1): no "EFI PART" signature; backup header (LBA 131071): no "EFI PART" signature',
    );
  });

  it('wipes the MBR, both headers and both arrays so neither sgdisk nor blkid finds a table', async () => {
    const file = sparseImage(64 * MiB);
    const fd = openImage(file);
    await writeGpt(fd, installerLayout(131072n, 512, SMALL));
    expect(blkidFinds(file)).toBe(true);
    await wipeGpt(fd);
    expect(blkidFinds(file)).toBe(false);
    expect(sgdisk('-p', file)).toContain('Creating new GPT entries');
    expect((await rejection(readGpt(fd))).code).toBe('no-table');
  });

  it('reads and writes an image of 4096-byte sectors when told the size', async () => {
    const file = sparseImage(64 * MiB);
    const fd = openImage(file);
    const g = await diskGeometry(fd, { sectorSize: 4096 });
    expect(g.diskSectors).toBe(16384n);
    const t = installerLayout(g.diskSectors, 4096, SMALL);
    await writeGpt(fd, t, { sectorSize: 4096 });
    expect((await readGpt(fd, { sectorSize: 4096 })).table).toEqual(t);
    // read as 512-byte sectors, LBA 1 is not the header: no table there
    expect((await rejection(readGpt(fd))).code).toBe('no-table');
  });

  it('refuses a table made for another disk, before writing anything', async () => {
    const file = sparseImage(64 * MiB);
    const fd = openImage(file);
    const bigger = createTable({ diskSectors: 262144n, sectorSize: 512 });
    expect((await rejection(writeGpt(fd, bigger))).message).toBe(
      'the table is laid out for 262144 sectors, the disk has 131072 (resizeDisk first)',
    );
    const wide = createTable({ diskSectors: 16384n, sectorSize: 4096 });
    expect((await rejection(writeGpt(fd, wide))).message).toBe(
      'the table has 4096-byte sectors, the disk 512-byte ones',
    );
    expect(blkidFinds(file)).toBe(false);
    const dev = openSync('/dev/null', 'r');
    onTestFinished(() => closeSync(dev));
    expect((await rejection(diskGeometry(dev))).code).toBe('invalid-argument');
  });
});

describe('tables on loop devices, as the kernel sees them', () => {
  it.each([512, 4096])(
    'writes through a %d-byte-sector device and the kernel finds every partition',
    async (bs) => {
      const loop = attachLoop(sparseImage(64 * MiB), { blockSize: bs });
      const g = await diskGeometry(loop.fd);
      expect(g).toEqual({
        sectorSize: bs,
        diskSectors: BigInt((64 * MiB) / bs),
        sizeBytes: BigInt(64 * MiB),
        blockDevice: true,
      });
      const t = installerLayout(g.diskSectors, bs, SMALL);
      const res = await writeGpt(loop.fd, t);
      expect(res.kernel?.ops.map((o) => [o.op, o.number])).toEqual(
        t.partitions.map((p) => ['add', p.number]),
      );

      const units = BigInt(bs / 512); // sysfs counts 512-byte units whatever the sector size
      for (const p of t.partitions) {
        expect(loop.sysfs(p.number, 'start')).toBe(p.firstLba * units);
        expect(loop.sysfs(p.number, 'size')).toBe((p.lastLba - p.firstLba + 1n) * units);
      }
      expect(loop.hasPartition(7)).toBe(false);
      expect(sgdisk('-p', loop.path)).toMatch(
        new RegExp(`Sector size \\(logical(/physical)?\\): ${bs}(/\\d+)? bytes`),
      );
      const verdict = sgdiskVerify(loop.path);
      expect(verdict.clean, verdict.text).toBe(true);
      expectSgdiskSees(loop.path, t);
      expect((await readGpt(loop.fd)).table).toEqual(t);

      expect((await wipeGpt(loop.fd)).kernel?.ops).toHaveLength(6);
      expect(loop.hasPartition(1)).toBe(false);
      expect(blkidFinds(loop.path)).toBe(false);
    },
  );

  it('refuses a sector size that is not the device’s', async () => {
    const loop = attachLoop(sparseImage(16 * MiB), { blockSize: 4096 });
    expect((await rejection(diskGeometry(loop.fd, { sectorSize: 512 }))).message).toBe(
      "the device's logical sector size is 4096 bytes, not the 512 asked for",
    );
  });
});
