import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { flock, funlock, tryFlock } from '../../src/sys/flock.js';

function lockFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keel-flock-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const f = join(dir, 'lock');
  writeFileSync(f, '');
  return f;
}

describe('flock between two processes', () => {
  it('an exclusive lock here makes another process fail to lock', () => {
    const f = lockFile();
    const fd = openSync(f, 'r');
    onTestFinished(() => closeSync(fd));
    expect(tryFlock(fd, 'exclusive')).toBe(true);
    expect(spawnSync('flock', ['--nonblock', f, 'true']).status).toBe(1);
    funlock(fd);
    expect(spawnSync('flock', ['--nonblock', f, 'true']).status).toBe(0);
  });

  it('waits while another process holds the lock and takes it when released', async () => {
    const f = lockFile();
    // the holder prints once it has the lock and keeps it until its stdin closes
    const holder = spawn('flock', ['--exclusive', f, 'sh', '-c', 'echo locked; read x'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    onTestFinished(() => {
      holder.kill('SIGKILL');
    });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    const fd = openSync(f, 'r');
    onTestFinished(() => closeSync(fd));
    expect(tryFlock(fd, 'shared')).toBe(false);
    const taken = flock(fd, 'exclusive', { signal: AbortSignal.timeout(10_000) });
    holder.stdin.end('\n');
    await taken;
    expect(spawnSync('flock', ['--nonblock', f, 'true']).status).toBe(1);
  });

  it('gives up when its signal aborts', async () => {
    const f = lockFile();
    const a = openSync(f, 'r');
    const b = openSync(f, 'r');
    onTestFinished(() => {
      closeSync(a);
      closeSync(b);
    });
    expect(tryFlock(a, 'exclusive')).toBe(true);
    const ctl = new AbortController();
    const waiting = flock(b, 'exclusive', { signal: ctl.signal });
    ctl.abort(new Error('stop waiting'));
    await expect(waiting).rejects.toThrow('stop waiting');
  });
});
