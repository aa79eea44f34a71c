import { describe, expect, it } from 'vitest';
import { SpawnError, spawnProcess, toExitStatus } from '../../src/machined/spawn.js';

describe('spawnProcess', () => {
  it('hands the exit status to the starter', async () => {
    const p = await spawnProcess('/bin/sh', ['-c', 'exit 42']);
    expect(p.pid).toBeGreaterThan(0);
    expect(await p.exited).toEqual({ kind: 'exited', code: 42 });
  });

  it('fails with a typed error when the program cannot start', async () => {
    const err = await spawnProcess('/nonexistent/program').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpawnError);
    expect((err as SpawnError).code).toBe('ENOENT');
    expect((err as SpawnError).message).toBe('spawn "/nonexistent/program": ENOENT');
  });

  it('converts Node exit pairs', () => {
    expect(toExitStatus(3, null)).toEqual({ kind: 'exited', code: 3 });
    expect(toExitStatus(null, 'SIGKILL')).toEqual({ kind: 'signaled', signal: 9, coreDumped: false });
  });
});
