// The components build's lock (scripts/components/lock.ts): a second taker waits for the first, and a
// holder that dies, even by SIGKILL, lets go.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { lock } from '../../scripts/components/lock.js';

const LOCK = fileURLToPath(new URL('../../scripts/components/lock.ts', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const lockFile = () => {
  const d = mkdtempSync(join(tmpdir(), 'keel-lock-'));
  dirs.push(d);
  return join(d, '.lock');
};

/** settled tells whether a promise has settled by the time the timers of `ms` have run */
const settled = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('components lock', () => {
  it('makes a second taker wait until the first releases', async () => {
    const file = lockFile();
    const release = await lock(file);
    const second = lock(file);
    expect(await settled(second, 500)).toBe(false);
    await release();
    await (await second)();
  });

  it('is released when its holder is killed', async () => {
    const file = lockFile();
    const holder = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import(${JSON.stringify(LOCK)}).then((m) => m.lock(${JSON.stringify(file)})).then(() => { console.log('held'); setInterval(() => {}, 1000); })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const next = lock(file);
    expect(await settled(next, 300)).toBe(false);
    holder.kill('SIGKILL');
    expect(await settled(next, 10_000)).toBe(true);
    await (await next)();
  });
});
