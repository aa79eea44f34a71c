// A container node as a real child process: spawned on a free loopback port with its own state directory,
// its stdout read line by line so tests wait on what it prints, and killed whatever happens.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/lib/free-port.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = join(ROOT, 'src/machined/container-entry.ts');

export { freePort };

export interface NodeProcess {
  readonly child: ChildProcess;
  readonly address: string;
  readonly lines: string[];
  /** resolves with the first line (already printed or still to come) matching `re` */
  waitForLine(re: RegExp): Promise<string>;
  /** resolves once `n` lines matching `re` have been printed */
  waitForCount(re: RegExp, n: number): Promise<void>;
  /** resolves with the exit code */
  readonly exited: Promise<number | null>;
}

const children = new Set<ChildProcess>();
const dirs: string[] = [];

export function tempStateDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'keel-node-'));
  dirs.push(d);
  return d;
}

/**
 * spawnNode starts a container node with its API on `port`. A control plane's trustd gets a free port too
 * unless `extra` names one (`--trustd-address`): the default 50001 would have two tests' nodes contend.
 */
export async function spawnNode(stateDir: string, port: number, extra: string[] = []): Promise<NodeProcess> {
  const address = `127.0.0.1:${port}`;
  const trustd = extra.includes('--trustd-address')
    ? []
    : ['--trustd-address', `127.0.0.1:${await freePort()}`];
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', ENTRY, '--state-dir', stateDir, '--api-address', address, ...trustd, ...extra],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  const lines: string[] = [];
  let waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  let counters: { re: RegExp; n: number; resolve: () => void }[] = [];
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
  });
  const onLine = (line: string) => {
    lines.push(line);
    const hit = waiters.filter((w) => w.re.test(line));
    waiters = waiters.filter((w) => !hit.includes(w));
    for (const w of hit) w.resolve(line);
    const reached = counters.filter((c) => lines.filter((l) => c.re.test(l)).length >= c.n);
    counters = counters.filter((c) => !reached.includes(c));
    for (const c of reached) c.resolve();
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', (l) => onLine(`stderr: ${l}`));
  const waitForLine = (re: RegExp) => {
    const seen = lines.find((l) => re.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      waiters.push({ re, resolve });
      void exited.then((code) =>
        reject(new Error(`node exited (${code}) before printing ${re}:\n${lines.join('\n')}`)),
      );
    });
  };
  const waitForCount = (re: RegExp, n: number) => {
    if (lines.filter((l) => re.test(l)).length >= n) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      counters.push({ re, n, resolve });
      void exited.then((code) =>
        reject(new Error(`node exited (${code}) before printing ${re} ${n} times:\n${lines.join('\n')}`)),
      );
    });
  };
  return { child, address, lines, waitForLine, waitForCount, exited };
}

/** cleanup kills every node still running and removes the state directories. */
export async function cleanup(): Promise<void> {
  await Promise.all(
    [...children].map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.kill('SIGKILL');
        }),
    ),
  );
  children.clear();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}
