// An exclusive lock on a file, held by flock(1), for builds that must not run twice at once.
import { spawn } from 'node:child_process';
import { ComponentsError } from './errors.js';

/**
 * lock waits for an exclusive flock(1) on `file` and returns its release. The lock is held by a child
 * that waits on its standard input, so it also ends when this process dies, however it dies.
 */
export async function lock(file: string): Promise<() => Promise<void>> {
  const child = spawn('flock', ['-x', file, 'sh', '-c', 'echo locked; exec cat >/dev/null'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const locked = await new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('exit', () => resolve(false));
    child.stdout.once('data', (b: Buffer) => resolve(b.toString().startsWith('locked')));
  });
  if (!locked) throw new ComponentsError('tool', `flock ${file}: could not lock (flock is in util-linux)`);
  return async () => {
    child.stdin.end();
    await closed;
  };
}
