// The reaper in an ordinary process made child subreaper: orphans come to it as they would to PID 1.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isNodeOwned } from '../../src/machined/child-guard.js';
import { childPids, type Reaped, startReaper } from '../../src/machined/reaper.js';
import { spawnProcess } from '../../src/machined/spawn.js';
import { setChildSubreaper } from '../../src/sys/prctl.js';

const ORPHAN_CODE = 5;

describe('reaper', () => {
  it('keeps exit codes while reaping orphans (#5)', async () => {
    setChildSubreaper(true);
    onTestFinished(() => setChildSubreaper(false));
    const reaper = startReaper({ intervalMs: 200 });
    onTestFinished(() => reaper.stop());
    const N = 40;
    const orphans: Reaped[] = [];
    const allOrphans = new Promise<void>((resolve) =>
      reaper.onReap((r) => {
        orphans.push(r);
        if (orphans.length === N) resolve();
      }),
    );
    const codes = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const p = await spawnProcess('/bin/sh', ['-c', `(sleep 0.05; exit ${ORPHAN_CODE}) & exit ${i + 1}`]);
        return p.exited;
      }),
    );
    expect(codes).toEqual(Array.from({ length: N }, (_, i) => ({ kind: 'exited', code: i + 1 })));
    await allOrphans;
    expect(orphans.every((o) => o.status.kind === 'exited' && o.status.code === ORPHAN_CODE)).toBe(true);
    expect(reaper.stats().reaped).toBe(N);
  });

  it('never steals from child_process used directly (execFile)', async () => {
    setChildSubreaper(true);
    onTestFinished(() => setChildSubreaper(false));
    const reaper = startReaper({ intervalMs: 10 });
    onTestFinished(() => reaper.stop());
    const run = promisify(execFile);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        run('/bin/sh', ['-c', `echo ${i}; exit ${i % 2}`]).then(
          (r) => ({ out: r.stdout.trim(), code: 0 }),
          (e: { stdout: string; code: number }) => ({ out: e.stdout.trim(), code: e.code }),
        ),
      ),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => ({ out: String(i), code: i % 2 })));
    expect(reaper.stats().reaped).toBe(0);
  });

  it('lists children from every thread and marks those Node owns', async () => {
    const p = await spawnProcess('/bin/sleep', ['30']);
    onTestFinished(() => {
      p.child.kill('SIGKILL');
    });
    expect(childPids()).toContain(p.pid);
    expect(isNodeOwned(p.pid)).toBe(true);
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ kind: 'signaled', signal: 15, coreDumped: false });
    expect(isNodeOwned(p.pid)).toBe(false);
  });
});
