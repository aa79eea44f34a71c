// What the volume tests on loop disks share: a disk as the installer leaves it (META only), a disk as a node
// leaves it (META, STATE, EPHEMERAL formatted), blank disks, blkid's view of a device, and the inputs the
// discovery controllers would publish for a disk (made here from blkid and sysfs). Loop devices are
// detached and their images removed however the test ends.
import { execFileSync } from 'node:child_process';
import {
  BLOCK_NAMESPACE,
  DISCOVERED_VOLUMES_STATUS_ID,
  DiscoveredVolume,
  DiscoveredVolumesStatus,
  Disk,
  prettySize,
  SYSTEM_DISK_ID,
  SystemDisk,
} from '../../../resources/block/index.js';
import type { State } from '../../../src/cosi/state/state.js';
import {
  addPartition,
  createTable,
  diskGeometry,
  type GptTable,
  PARTITION_TYPE,
  readGpt,
  writeGpt,
} from '../../../src/sys/block/gpt/index.js';
import { attachLoop, type Loop, sparseImage } from '../../sys/block/gpt/loop-device.js';

export const MiB = 2 ** 20;
export const GiB = 2 ** 30;
/** how long a volume may take to get through its phases on a loop disk (mkfs included) */
export const WAIT = { timeoutMs: 90_000 };

const needRoot = () => {
  if (process.getuid?.() !== 0) throw new Error('needs root: loop devices and mkfs');
};

/** blankDisk is a loop disk of `bytes` with nothing on it. */
export function blankDisk(bytes: number): Loop {
  needRoot();
  return attachLoop(sparseImage(bytes));
}

/** installerDisk is a loop disk of `bytes` with the installer's 1 MiB META, plus `extra` partitions. */
export async function installerDisk(
  bytes: number,
  extra: (t: GptTable) => GptTable = (t) => t,
): Promise<Loop> {
  const loop = blankDisk(bytes);
  const g = await diskGeometry(loop.fd);
  let t = createTable({ diskSectors: g.diskSectors, sectorSize: g.sectorSize });
  t = addPartition(t, { name: 'META', type: PARTITION_TYPE.linuxFilesystem, size: MiB }).table;
  await writeGpt(loop.fd, extra(t));
  return loop;
}

/** format makes a filesystem on partition k with the host's mkfs (xfs allowed under 300 MB). */
export function format(loop: Loop, k: number, kind: 'xfs' | 'vfat', label: string): void {
  const dev = `${loop.path}p${k}`;
  const env = { ...process.env, TEST_DIR: '1', TEST_DEV: '1', QA_CHECK_FS: '1' };
  if (kind === 'xfs') execFileSync('mkfs.xfs', ['-f', '-L', label, dev], { stdio: 'ignore', env });
  else execFileSync('mkfs.vfat', ['-n', label, dev], { stdio: 'ignore' });
}

/** installedDisk is a disk as a node left it: META, STATE (100 MiB) and a small EPHEMERAL, formatted. */
export async function installedDisk(ephemeralFs: 'xfs' | 'vfat'): Promise<Loop> {
  const loop = await installerDisk(3 * GiB, (t) => {
    const s = addPartition(t, { name: 'STATE', type: PARTITION_TYPE.linuxFilesystem, size: 100 * MiB }).table;
    return addPartition(s, { name: 'EPHEMERAL', type: PARTITION_TYPE.linuxFilesystem, size: 400 * MiB })
      .table;
  });
  format(loop, 2, 'xfs', 'STATE');
  format(loop, 3, ephemeralFs, 'EPHEMERAL');
  return loop;
}

/** blkid reads a device's probe as `KEY=value` lines; nothing found is an empty record. */
export function blkid(path: string): Record<string, string> {
  let out = '';
  try {
    out = execFileSync('blkid', ['-p', '-o', 'export', path], { encoding: 'utf8' });
  } catch (e) {
    if ((e as { status?: number }).status !== 2) throw e; // 2: nothing found
  }
  return Object.fromEntries(
    out
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

export interface DiscoverOptions {
  /** the disk is the system disk (SystemDisk names it); default true */
  readonly system?: boolean;
  /** discovery is complete after this disk (DiscoveredVolumesStatus ready); default true */
  readonly done?: boolean;
}

/** discover publishes what the discovery controllers would: the disk, its partitions, the system disk. */
export async function discover(state: State, loop: Loop, opts: DiscoverOptions = {}): Promise<void> {
  const size = Number((await diskGeometry(loop.fd)).sizeBytes);
  const disk = Disk.codec.empty();
  Object.assign(disk, {
    devPath: loop.path,
    size,
    prettySize: prettySize(size),
    sectorSize: 512,
    ioSize: 512,
  });
  await state.create(Disk.new(BLOCK_NAMESPACE, loop.name, disk));
  if (opts.system ?? true)
    await state.create(
      SystemDisk.new(BLOCK_NAMESPACE, SYSTEM_DISK_ID, { diskID: loop.name, devPath: loop.path }),
    );
  const whole = DiscoveredVolume.codec.empty();
  const partitions = await readGpt(loop.fd).then(
    ({ table }) => table.partitions,
    () => [], // a blank disk: no table, nothing on it
  );
  Object.assign(whole, { devPath: loop.path, type: 'disk', size, name: partitions.length ? 'gpt' : '' });
  await state.create(DiscoveredVolume.new(BLOCK_NAMESPACE, loop.name, whole));
  for (const p of partitions) {
    const path = `${loop.path}p${p.number}`;
    const facts = blkid(path);
    const v = DiscoveredVolume.codec.empty();
    const bytes = Number(loop.sysfs(p.number, 'size')) * 512;
    Object.assign(v, {
      devPath: path,
      type: 'partition',
      parent: loop.name,
      parentDevPath: loop.path,
      size: bytes,
      prettySize: prettySize(bytes),
      name: facts.TYPE ?? '',
      uuid: facts.UUID ?? '',
      label: facts.LABEL ?? '',
      partitionLabel: facts.PART_ENTRY_NAME ?? '',
      partitionUUID: (facts.PART_ENTRY_UUID ?? '').toLowerCase(),
      partitionType: (facts.PART_ENTRY_TYPE ?? '').toLowerCase(),
      partitionIndex: Number(facts.PART_ENTRY_NUMBER ?? p.number),
    });
    await state.create(DiscoveredVolume.new(BLOCK_NAMESPACE, `${loop.name}p${p.number}`, v));
  }
  if (opts.done ?? true)
    await state.create(
      DiscoveredVolumesStatus.new(BLOCK_NAMESPACE, DISCOVERED_VOLUMES_STATUS_ID, { ready: true }),
    );
}
