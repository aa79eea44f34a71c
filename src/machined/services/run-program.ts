// runProgram: a short helper program run to its end through a SpawnFn (udevadm from udevd's health
// check), its output kept, a failure told with the program's own last words.
import type { Readable } from 'node:stream';
import { drained, type ServiceChild, type SpawnFn } from './process-runner.js';

/** at most this much of each stream is kept */
const KEEP_BYTES = 64 * 1024;

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

/** collect keeps the first KEEP_BYTES (and the chunk that crosses it) of a stream. */
function collect(stream: Readable | null): () => Buffer {
  const parts: Buffer[] = [];
  let bytes = 0;
  stream?.on('data', (b: Buffer) => {
    if (bytes < KEEP_BYTES) parts.push(b);
    bytes += b.length;
  });
  return () => Buffer.concat(parts);
}

/** runProgram resolves with the program's stdout once it exits 0; an abort kills it (SIGKILL). */
export async function runProgram(
  spawn: SpawnFn,
  file: string,
  args: readonly string[],
  opts: RunProgramOptions = {},
): Promise<string> {
  const what = [file, ...args].join(' ');
  opts.signal?.throwIfAborted();
  let child: ServiceChild;
  try {
    child = spawn(file, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(opts.env ? { env: { ...opts.env } } : {}),
    });
  } catch (e) {
    throw new ProgramError(`${what}: ${(e as Error).message}`, null, null, '', { cause: e });
  }
  const out = collect(child.stdout);
  const err = collect(child.stderr);
  const abort = () => child.kill('SIGKILL');
  opts.signal?.addEventListener('abort', abort, { once: true });
  // an abort before the program started could not kill it yet
  child.once('spawn', () => {
    if (opts.signal?.aborted) abort();
  });
  try {
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
      (resolve, reject) => {
        child.once('error', (e: Error) => {
          // after the start, 'error' is a failed kill(): the exit still comes
          if (child.pid === undefined)
            reject(new ProgramError(`${what}: ${e.message}`, null, null, '', { cause: e }));
        });
        child.once('exit', (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
      },
    );
    await drained(child);
    if (opts.signal?.aborted) throw opts.signal.reason;
    if (ended.code === 0) return out().toString('utf8');
    const stderr = err().toString('utf8').trim();
    const how = ended.code !== null ? `exited with code ${ended.code}` : `killed by ${ended.signal}`;
    throw new ProgramError(
      `${what}: ${how}${stderr ? `: ${stderr.split('\n').slice(-3).join(' | ')}` : ''}`,
      ended.code,
      ended.signal,
      stderr,
    );
  } finally {
    opts.signal?.removeEventListener('abort', abort);
  }
}
