// Loop devices for the block tests: a sparse image attached through src/sys/ioctl-loop.ts, detached
// (and, when the test made the device, removed) however the test ends. Other suites attach loops at
// the same time, so a device someone else configured first is simply passed over.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { isSysError } from '../../../../src/sys/errno.js';
import {
  ioctl,
  LO_FLAGS,
  LOOP_CTL_ADD,
  LOOP_CTL_REMOVE,
  loopClear,
  loopConfigure,
  loopGetFree,
} from '../../../../src/sys/ioctl-loop.js';

export interface Loop {
  readonly n: number;
  readonly name: string;
  readonly path: string;
  /** the descriptor the loop was configured through, read-write; closed at the end of the test */
  readonly fd: number;
  readonly file: string;
  /** detach clears the loop (and removes a device the test made) now rather than at the end; once */
  readonly detach: () => void;
}

/** tempDir is a directory removed at the end of the test. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `keel-${prefix}-`));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** image makes a sparse file of `size` bytes, or one filled with `fill` when given. */
export function image(dir: string, size: number, fill?: number): string {
  const file = join(dir, 'disk.img');
  if (fill === undefined) {
    writeFileSync(file, '');
    truncateSync(file, size);
  } else writeFileSync(file, Buffer.alloc(size, fill));
  return file;
}

function run(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

export interface AttachOptions {
  readonly flags?: number;
  readonly blockSize?: number;
  /**
   * make a new loop device (LOOP_CTL_ADD) rather than take a free one, so its add and remove are seen;
   * its number is picked at random, so that no other suite making one at the same time has the same name
   */
  readonly create?: boolean;
}

function createLoop(ctl: number): number {
  for (;;) {
    try {
      return ioctl(ctl, LOOP_CTL_ADD, 200 + Math.floor(Math.random() * 800));
    } catch (e) {
      if (!isSysError(e, 'EEXIST')) throw e;
    }
  }
}

/** attachLoop binds `file` to a loop device until the end of the test. */
export function attachLoop(file: string, opts: AttachOptions = {}): Loop {
  if (!existsSync('/dev/loop-control')) throw new Error('needs /dev/loop-control (the loop driver) and root');
  for (let attempt = 0; attempt < 20; attempt++) {
    const ctl = openSync('/dev/loop-control', 'r+');
    let n: number;
    try {
      n = opts.create ? createLoop(ctl) : loopGetFree(ctl);
    } finally {
      closeSync(ctl);
    }
    const path = `/dev/loop${n}`;
    const fd = openSync(path, 'r+');
    const backing = openSync(file, 'r+');
    try {
      loopConfigure(fd, {
        backingFd: backing,
        flags: opts.flags ?? 0,
        blockSize: opts.blockSize ?? 0,
        fileName: file,
      });
    } catch (e) {
      closeSync(fd);
      if (isSysError(e, 'EBUSY')) continue; // another suite configured it first
      throw e;
    } finally {
      closeSync(backing);
    }
    let attached = true;
    const detachOnce = () => {
      if (!attached) return;
      attached = false;
      detach({ n, fd, created: opts.create ?? false });
    };
    onTestFinished(detachOnce);
    return { n, name: `loop${n}`, path, fd, file, detach: detachOnce };
  }
  throw new Error('no loop device stayed free for 20 attempts');
}

function detach({ n, fd, created }: { n: number; fd: number; created: boolean }): void {
  try {
    loopClear(fd);
  } catch {
    // cleared by the test already
  }
  closeSync(fd);
  if (!created) return;
  const ctl = openSync('/dev/loop-control', 'r+');
  try {
    ioctl(ctl, LOOP_CTL_REMOVE, n);
  } catch (e) {
    if (!isSysError(e, 'EBUSY')) throw e; // taken by another suite meanwhile: theirs to detach
  } finally {
    closeSync(ctl);
  }
}

export interface PartitionedLoop extends Loop {
  /** whether the kernel read the table itself (a kernel without a GPT parser needs partx to add them) */
  readonly scannedByKernel: boolean;
}

/**
 * partitionedLoop writes a GPT with sgdisk (a 4 MiB partition labelled keel-alpha, then the rest) to a
 * 16 MiB image and attaches it with PARTSCAN, so the kernel shows loopNp1 and loopNp2.
 */
export function partitionedLoop(dir: string, opts: Omit<AttachOptions, 'flags'> = {}): PartitionedLoop {
  const file = image(dir, 16 << 20);
  run('sgdisk', ['-n', '1:0:+4M', '-c', '1:keel-alpha', '-n', '2:0:0', file]);
  const loop = attachLoop(file, { ...opts, flags: LO_FLAGS.PARTSCAN });
  const scannedByKernel = existsSync(`/sys/class/block/${loop.name}p1`);
  if (!scannedByKernel) run('partx', ['--add', loop.path]); // the same partitions, added through BLKPG
  return { ...loop, scannedByKernel };
}

export interface LsblkDevice {
  readonly name: string;
  readonly size: bigint;
  readonly logSec: number;
  readonly phySec: number;
  readonly ro: boolean;
  readonly rm: boolean;
  readonly rota: boolean;
  readonly type: string;
  readonly pkname: string | null;
  readonly majMin: string;
}

const bool = (v: unknown) => v === true || v === '1' || v === 1;

/** lsblk lists a device and its partitions as util-linux sees them, in bytes. */
export function lsblk(path: string): LsblkDevice[] {
  const out = JSON.parse(
    run('lsblk', ['-J', '-b', '-o', 'NAME,SIZE,LOG-SEC,PHY-SEC,RO,RM,ROTA,TYPE,PKNAME,MAJ:MIN', path]),
  ) as { blockdevices: Record<string, unknown>[] };
  const flat: Record<string, unknown>[] = [];
  const walk = (ds: Record<string, unknown>[]) => {
    for (const d of ds) {
      flat.push(d);
      walk((d.children as Record<string, unknown>[] | undefined) ?? []);
    }
  };
  walk(out.blockdevices);
  return flat.map((d) => ({
    name: String(d.name),
    size: BigInt(String(d.size)),
    logSec: Number(d['log-sec']),
    phySec: Number(d['phy-sec']),
    ro: bool(d.ro),
    rm: bool(d.rm),
    rota: bool(d.rota),
    type: String(d.type),
    pkname: d.pkname === null || d.pkname === undefined ? null : String(d.pkname),
    majMin: String(d['maj:min']),
  }));
}

/** readBytes reads a range of a device (or file) through a descriptor of its own. */
export function readBytes(path: string, start: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    for (let got = 0; got < length; ) {
      const n = readSync(fd, buf, got, length - got, start + got);
      if (n === 0) throw new Error(`${path} ends at ${start + got}`);
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return buf;
}

export { run };
