// src/sys/block/mkfs: making a filesystem on a block device with the host's mkfs programs (xfsprogs),
// run to completion with their output kept for the error.
import { execFile } from 'node:child_process';

export interface MkfsOptions {
  /** the filesystem label (xfs: at most 12 characters) */
  readonly label?: string;
  /** where the program is; found on PATH when absent */
  readonly program?: string;
  readonly signal?: AbortSignal;
}

/** MkfsError is a mkfs program that would not start or did not exit 0; it carries the program's words. */
export class MkfsError extends Error {
  constructor(
    readonly device: string,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'MkfsError';
  }
}

/** xfsArgs is the command line of mkfs.xfs: forced over stale signatures, labelled when asked. */
export const xfsArgs = (device: string, label?: string): string[] => [
  '-f',
  ...(label ? ['-L', label] : []),
  device,
];

/**
 * XFS_SMALL_ENV lets mkfs.xfs (xfsprogs ≥ 5.19 refuses filesystems under 300 MB) make the 100 MiB
 * STATE: the three variables are the escape its own source keeps for small test filesystems.
 */
export const XFS_SMALL_ENV = { TEST_DIR: '1', TEST_DEV: '1', QA_CHECK_FS: '1' } as const;

/**
 * toolPath is the caller's PATH with the system directories mkfs programs live in after it: a node's PATH
 * is upstream's (/usr/bin, /usr/local/…), while xfsprogs installs mkfs.xfs in /sbin.
 */
export const toolPath = (path: string | undefined): string => {
  const dirs = (path ?? '').split(':').filter(Boolean);
  for (const d of ['/usr/sbin', '/sbin', '/usr/bin', '/bin']) if (!dirs.includes(d)) dirs.push(d);
  return dirs.join(':');
};

/** mkfsXfs formats `device` as xfs. */
export function mkfsXfs(device: string, opts: MkfsOptions = {}): Promise<void> {
  const program = opts.program ?? 'mkfs.xfs';
  return new Promise((resolve, reject) => {
    execFile(
      program,
      xfsArgs(device, opts.label),
      {
        signal: opts.signal,
        maxBuffer: 1 << 20,
        env: { PATH: toolPath(process.env.PATH), ...XFS_SMALL_ENV },
      },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        if (opts.signal?.aborted) return reject(opts.signal.reason);
        // the reason comes first; a usage text may follow it
        const why = String(stderr).trim().split('\n')[0] || err.message;
        reject(new MkfsError(device, `${program} ${device}: ${why}`, { cause: err }));
      },
    );
  });
}

export const isMkfsError = (e: unknown): e is MkfsError => e instanceof MkfsError;
export * from './growfs.js';
