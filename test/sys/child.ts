// Runs a snippet of TypeScript in a fresh node process, optionally inside new namespaces (unshare).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const sys = (file: string): string => resolve(repo, 'src/sys', file);

export interface ChildResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** requireRoot fails with the missing privilege named, instead of skipping. */
export function requireRoot(what: string): void {
  if (process.getuid?.() !== 0) throw new Error(`${what} needs root (CAP_SYS_ADMIN)`);
}

/** runSnippet runs ESM `code` (top-level await allowed) under `unshare <flags>` when flags are given. */
export function runSnippet(code: string, unshareFlags: readonly string[] = []): ChildResult {
  const node = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', code];
  const [cmd, ...args] = unshareFlags.length ? ['unshare', ...unshareFlags, ...node] : node;
  const r = spawnSync(cmd!, args, { cwd: repo, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** scratchDir makes a temporary directory that is removed when the test finishes. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
