// Runs a fixture as PID 1 of its own PID + mount namespace and collects what it prints and how it ended.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Pid1Run {
  readonly lines: string[];
  /** waitForLine resolves with the first line matching `re`, rejecting if the namespace ends first */
  waitForLine(re: RegExp): Promise<string>;
  readonly ended: Promise<Ended>;
  /** the fixture's pid as seen from here (it is 1 inside) */
  innerPid(): number;
  /** kill ends the namespace: SIGKILL to its init takes every process in it along */
  kill(): void;
}

/** requireRoot fails with the missing privilege named, instead of skipping. */
export function requireRoot(): void {
  if (process.getuid?.() !== 0)
    throw new Error('these tests need root (CAP_SYS_ADMIN for unshare --pid --mount)');
}

/** fixture resolves a fixture file name to its path. */
export const fixture = (name: string): string => join(repo, 'test/integration/machined/fixtures', name);

/**
 * runAsPid1 starts `unshare --pid --fork --mount-proc --mount` with node running the fixture. The
 * --kill-child option kills the namespace if unshare dies, so nothing outlives a failed test.
 */
export function runAsPid1(script: string, args: readonly string[] = []): Pid1Run {
  requireRoot();
  const child: ChildProcess = spawn(
    'unshare',
    [
      '--pid',
      '--fork',
      '--mount-proc',
      '--mount',
      '--kill-child=SIGKILL',
      process.execPath,
      '--import',
      'tsx',
      script,
      ...args,
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    for (const w of waiters) w();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const ended = new Promise<Ended>((res) => child.once('exit', (code, signal) => res({ code, signal })));
  let done = false;
  void ended.then(() => {
    done = true;
    if (buffered) lines.push(buffered);
    for (const w of waiters) w();
  });

  const innerPid = (): number => {
    const pid = child.pid;
    if (pid === undefined) throw new Error('unshare did not start');
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (!text) throw new Error('the namespace has no init (yet)');
    return Number(text.split(' ')[0]);
  };

  return {
    lines,
    ended,
    innerPid,
    waitForLine(re) {
      return new Promise((resolvePromise, reject) => {
        const check = () => {
          const hit = lines.find((l) => re.test(l));
          if (hit !== undefined) {
            waiters.delete(check);
            resolvePromise(hit);
          } else if (done) {
            waiters.delete(check);
            reject(new Error(`namespace ended before a line matched ${re}:\n${lines.join('\n')}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
    kill() {
      if (done) return;
      try {
        process.kill(innerPid(), 'SIGKILL');
      } catch {
        // already gone
      }
      child.kill('SIGKILL');
    },
  };
}

/** indexOfLine is the position of the first line containing `text`, -1 if none. */
export const indexOfLine = (lines: readonly string[], text: string): number =>
  lines.findIndex((l) => l.includes(text));
