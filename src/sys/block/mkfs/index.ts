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
        env: { PATH: process.env.PATH ?? '/usr/sbin:/sbin:/usr/bin:/bin' },
      },
      (err, _stdout, stderr) => {
        if (!err) return resolve();
        if (opts.signal?.aborted) return reject(opts.signal.reason);
        const why = String(stderr).trim().split('\n').slice(-3).join('; ') || err.message;
        reject(new MkfsError(device, `${program} ${device}: ${why}`, { cause: err }));
      },
    );
  });
}
