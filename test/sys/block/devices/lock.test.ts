// The whole-disk lock against flock(1) in another process, the way udevd and disk tools meet it.
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { lockDisk, tryLockDisk, unlockDisk, withDiskLock } from '../../../../src/sys/block/devices/lock.js';
import { closeBlockDevice, openBlockDevice } from '../../../../src/sys/block/devices/open.js';
import { attachLoop, image, tempDir } from './loop-fixture.js';

function disk() {
  const loop = attachLoop(image(tempDir('lock'), 4 << 20));
  const d = openBlockDevice(loop.path);
  onTestFinished(() => closeBlockDevice(d));
  return d;
}

/** holder takes the lock in another process and keeps it until release() closes its stdin. */
async function holder(path: string, mode: '-x' | '-s') {
  const child = spawn('flock', [mode, path, 'sh', '-c', 'echo locked; read x'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  onTestFinished(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`flock ${mode} ${path} exited with ${code}`)));
  });
  return {
    release: async () => {
      child.stdin.end('\n');
      return exited;
    },
  };
}

const othersCanLock = (path: string) => spawnSync('flock', ['--nonblock', '-s', path, 'true']).status === 0;

describe('the whole-disk lock', () => {
  it('is refused while another process holds it exclusively, and waited for until it goes', async () => {
    const d = disk();
    const other = await holder(d.path, '-x');
    expect(tryLockDisk(d, 'shared')).toBe(false);
    expect(tryLockDisk(d, 'exclusive')).toBe(false);
    let taken = false;
    const waiting = lockDisk(d, 'exclusive', { signal: AbortSignal.timeout(20_000) }).then(() => {
      taken = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(taken).toBe(false); // still held by the other process
    expect(await other.release()).toBe(0);
    await waiting;
    expect(taken).toBe(true);
    expect(othersCanLock(d.path)).toBe(false); // now ours, and exclusive
    unlockDisk(d);
    expect(othersCanLock(d.path)).toBe(true);
  });

  it('is shared by probers and refused to a writer while any prober holds it', async () => {
    const d = disk();
    const prober = await holder(d.path, '-s');
    expect(tryLockDisk(d, 'shared')).toBe(true);
    expect(othersCanLock(d.path)).toBe(true);
    unlockDisk(d);
    expect(tryLockDisk(d, 'exclusive')).toBe(false);
    await prober.release();
    expect(tryLockDisk(d, 'exclusive')).toBe(true);
  });

  it('gives up after its timeout with a BlockError coded locked, and at once on an abort', async () => {
    const d = disk();
    await holder(d.path, '-x');
    await expect(lockDisk(d, 'shared', { timeoutMs: 100 })).rejects.toMatchObject({
      name: 'BlockError',
      code: 'locked',
      device: d.path,
      message: `${d.path}: another holder kept the disk locked for 100 ms`,
    });
    const ctl = new AbortController();
    const waiting = lockDisk(d, 'shared', { signal: ctl.signal, timeoutMs: 60_000 });
    ctl.abort(new Error('stop waiting'));
    await expect(waiting).rejects.toThrow('stop waiting');
    const aborted = AbortSignal.abort(new Error('already stopped'));
    await expect(lockDisk(d, 'shared', { signal: aborted })).rejects.toThrow('already stopped');
  });

  it('is held for the length of a function and released however it ends', async () => {
    const d = disk();
    await expect(
      withDiskLock(d, 'exclusive', () => {
        expect(othersCanLock(d.path)).toBe(false);
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    expect(othersCanLock(d.path)).toBe(true);
    expect(await withDiskLock(d, 'shared', async () => 42)).toBe(42);
    expect(othersCanLock(d.path)).toBe(true);
  });

  it('names the descriptor when flock itself fails', () => {
    expect(() => tryLockDisk(99_999, 'shared')).toThrow(
      expect.objectContaining({
        name: 'BlockError',
        device: 'fd 99999',
        message: expect.stringMatching(/EBADF/),
      }),
    );
  });
});
