// Runs an initramfs for real: its cpio is unpacked into a fresh tmpfs inside a new PID + mount namespace
// and its /init runs there as PID 1, as the kernel would start it. Nothing is mounted on the host.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type KmsgRecord, readKmsg } from '../../src/sys/kmsg.js';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** requireRoot fails with the missing privilege named, instead of skipping. */
export function requireRoot(): void {
  if (process.getuid?.() !== 0)
    throw new Error('the init tests need root (unshare --pid --mount, mount, loop devices, /dev/kmsg)');
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

const run = (cmd: string, args: readonly string[], env?: NodeJS.ProcessEnv): Buffer =>
  execFileSync(cmd, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });

/** buildInit runs scripts/init.sh: OUTDIR/stage1, OUTDIR/floor and OUTDIR/prefault.so. */
export function buildInit(outDir: string): { stage1: string; floor: string; prefault: string } {
  run('scripts/init.sh', [outDir]);
  return {
    stage1: join(outDir, 'stage1'),
    floor: join(outDir, 'floor'),
    prefault: join(outDir, 'prefault.so'),
  };
}

/** buildInitramfs runs scripts/initramfs.sh OUT INIT SRC=DEST... */
export function buildInitramfs(
  out: string,
  init: string,
  files: Record<string, string> = {},
  env?: NodeJS.ProcessEnv,
): string {
  run(
    'scripts/initramfs.sh',
    [out, init, ...Object.entries(files).map(([dest, src]) => `${src}=${dest}`)],
    env,
  );
  return out;
}

/** compileStatic builds one C file of test/init into a static binary. */
export function compileStatic(source: string, out: string): void {
  mkdirSync(dirname(out), { recursive: true });
  run('musl-gcc', [
    '-static',
    '-Os',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-o',
    out,
    join(repo, 'test/init', source),
  ]);
}

/** compileDynamic builds one C file of test/init into a glibc executable (what a preload can enter). */
export function compileDynamic(source: string, out: string): void {
  mkdirSync(dirname(out), { recursive: true });
  run('gcc', ['-O2', '-Wall', '-Wextra', '-Werror', '-o', out, join(repo, 'test/init', source)]);
}

/** makeSquashfs packs a directory the way the image build does (zstd, everything owned by root). */
export function makeSquashfs(dir: string, out: string): string {
  run('mksquashfs', [dir, out, '-comp', 'zstd', '-noappend', '-all-root', '-quiet']);
  return out;
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface InitramfsRun {
  /** what /init and its successors wrote to stdout and stderr before they moved to /dev/console */
  output(): string;
  /** what was written to fd 3, the channel the test payload reports on */
  report(): string;
  readonly ended: Promise<Ended>;
  /** hasEnded is true once the namespace's init is gone */
  hasEnded(): boolean;
  /** kill ends the namespace (SIGKILL to its init takes every process in it along) and waits for it */
  kill(): Promise<Ended>;
}

export interface RunOptions {
  /**
   * the kernel command line stage 1 reads: a file bind-mounted over /proc/cmdline of a procfs mounted
   * before /init starts (stage 1 keeps a /proc that is already mounted). Default: the host's.
   */
  cmdlineFile?: string;
}

// $1 mount point, $2 cpio, $3 cmdline file or ''. The tmpfs exists only in the new mount namespace,
// whose mounts unshare makes private, so it vanishes with the namespace.
const SCRIPT = `set -eu
mount -t tmpfs -o mode=0755 tmpfs "$1"
cd "$1"
cpio -id --quiet < "$2"
if [ -n "$3" ]; then
  mkdir proc
  mount -t proc proc proc
  mount --bind "$3" proc/cmdline
fi
exec chroot "$1" /init`;

/** runInitramfs unpacks an uncompressed initramfs into a tmpfs and runs its /init as PID 1. */
export function runInitramfs(cpio: string, mountPoint: string, opts: RunOptions = {}): InitramfsRun {
  requireRoot();
  mkdirSync(mountPoint, { recursive: true });
  const child: ChildProcess = spawn(
    'unshare',
    [
      '--pid',
      '--fork',
      '--mount',
      '--kill-child=SIGKILL',
      'sh',
      '-c',
      SCRIPT,
      'sh',
      mountPoint,
      cpio,
      opts.cmdlineFile ?? '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  let report = '';
  child.stdout?.on('data', (c: Buffer) => {
    output += c.toString('utf8');
  });
  child.stderr?.on('data', (c: Buffer) => {
    output += c.toString('utf8');
  });
  const fd3 = child.stdio[3];
  if (fd3 && 'on' in fd3) fd3.on('data', (c: Buffer) => (report += c.toString('utf8')));
  let done = false;
  const ended = new Promise<Ended>((res) =>
    child.once('close', (code, signal) => {
      done = true;
      res({ code, signal });
    }),
  );
  return {
    output: () => output,
    report: () => report,
    ended,
    hasEnded: () => done,
    async kill() {
      if (!done && child.pid !== undefined) {
        // the namespace's init first: unshare's death would only reach it through PR_SET_PDEATHSIG
        try {
          const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim();
          for (const pid of kids.split(' ').filter(Boolean)) process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
        child.kill('SIGKILL');
      }
      return ended;
    },
  };
}

/** kmsgCursor marks the end of the kernel log now; records() returns what was logged after it. */
export function kmsgCursor(): { records(prefix: string): KmsgRecord[] } {
  const last = readKmsg().at(-1)?.seq ?? -1n; // the ring is read in sequence order
  return {
    records: (prefix) => readKmsg().filter((r) => r.seq > last && r.message.startsWith(prefix)),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** within resolves with the promise's value, or undefined if it takes longer than ms. */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((r) => {
    timer = setTimeout(() => r(undefined), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
