// runProgram: a short helper program run to its end through a SpawnFn (udevadm from udevd's health
// check), its output kept, a failure told with the program's own last words.
import type { SpawnFn } from './process-runner.js';

/** at most this much of each stream is kept */
const KEEP_BYTES = 64 * 1024;
/** how long to wait for the pipes after the exit, should a grandchild still hold them */
const DRAIN_MS = 1000;

/** ProgramError: the program could not start, exited non-zero or was killed. */
export class ProgramError extends Error {
  override readonly name = 'ProgramError';
  constructor(
    message: string,
    readonly code: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly stderr: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export interface RunProgramOptions {
  readonly signal?: AbortSignal;
  readonly env?: Readonly<Record<string, string>>;
}

/** runProgram resolves with the program's stdout once it exits 0; an abort kills it (SIGKILL). */
export function runProgram(
  spawn: SpawnFn,
  file: string,
  args: readonly string[],
  opts: RunProgramOptions = {},
): Promise<string> {
  const what = [file, ...args].join(' ');
  opts.signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    let child: ReturnType<SpawnFn>;
    try {
      child = spawn(file, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...(opts.env ? { env: { ...opts.env } } : {}),
      });
    } catch (e) {
      reject(new ProgramError(`${what}: ${(e as Error).message}`, null, null, '', { cause: e }));
      return;
    }
    const kept = { out: [] as Buffer[], err: [] as Buffer[], outBytes: 0, errBytes: 0 };
    child.stdout?.on('data', (b: Buffer) => {
      if (kept.outBytes < KEEP_BYTES) kept.out.push(b);
      kept.outBytes += b.length;
    });
    child.stderr?.on('data', (b: Buffer) => {
      if (kept.errBytes < KEEP_BYTES) kept.err.push(b);
      kept.errBytes += b.length;
    });
    const abort = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', abort, { once: true });
    // an abort before the program started could not kill it yet
    child.once('spawn', () => {
      if (opts.signal?.aborted) abort();
    });
    let outcome: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let open = [child.stdout, child.stderr].filter((s) => s !== null).length;
    const settle = () => {
      if (!outcome || open > 0) return;
      opts.signal?.removeEventListener('abort', abort);
      const stderr = Buffer.concat(kept.err).toString('utf8').trim();
      if (opts.signal?.aborted) reject(opts.signal.reason);
      else if (outcome.code === 0) resolve(Buffer.concat(kept.out).toString('utf8'));
      else
        reject(
          new ProgramError(
            `${what}: ${outcome.code !== null ? `exited with code ${outcome.code}` : `killed by ${outcome.signal}`}${stderr ? `: ${stderr.split('\n').slice(-3).join(' | ')}` : ''}`,
            outcome.code,
            outcome.signal,
            stderr,
          ),
        );
    };
    for (const s of [child.stdout, child.stderr])
      s?.once('close', () => {
        open--;
        settle();
      });
    child.once('error', (e: Error) => {
      if (child.pid !== undefined) return; // a failed kill(): the exit still comes
      opts.signal?.removeEventListener('abort', abort);
      reject(new ProgramError(`${what}: ${e.message}`, null, null, '', { cause: e }));
    });
    child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      outcome = { code, signal };
      settle();
      if (open > 0)
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }, DRAIN_MS).unref();
    });
  });
}
