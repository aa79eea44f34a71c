import { describe, expect, it } from 'vitest';
import { spawnProcess } from '../../src/machined/spawn.js';
import { setChildSubreaper } from '../../src/sys/prctl.js';
import {
  CLD,
  decodeSiginfo,
  decodeWaitStatus,
  P_ALL,
  P_PID,
  SIGINFO,
  WEXITED,
  WNOWAIT,
  waitid,
  waitpid,
} from '../../src/sys/wait.js';

describe('wait status layouts', () => {
  it('decodes the W* macros of a waitpid status', () => {
    expect(decodeWaitStatus(0x0700)).toEqual({ kind: 'exited', code: 7 });
    expect(decodeWaitStatus(0)).toEqual({ kind: 'exited', code: 0 });
    expect(decodeWaitStatus(9)).toEqual({ kind: 'signaled', signal: 9, coreDumped: false });
    expect(decodeWaitStatus(0x86)).toEqual({ kind: 'signaled', signal: 6, coreDumped: true });
  });

  it('reads siginfo_t at the x86_64 offsets', () => {
    const b = Buffer.alloc(SIGINFO.size);
    b.writeInt32LE(17, SIGINFO.signo);
    b.writeInt32LE(CLD.KILLED, SIGINFO.code);
    b.writeInt32LE(4242, SIGINFO.pid);
    b.writeUInt32LE(1000, SIGINFO.uid);
    b.writeInt32LE(15, SIGINFO.status);
    expect(decodeSiginfo(b)).toEqual({ pid: 4242, uid: 1000, code: CLD.KILLED, status: 15 });
  });
});

/** orphan makes a grandchild that ends as `script` says after its parent is gone, and returns its pid. */
async function orphan(script: string): Promise<number> {
  const p = await spawnProcess('/bin/sh', ['-c', `(${script}) & echo $!`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  p.child.stdout?.on('data', (c: Buffer) => {
    out += c.toString();
  });
  await p.exited;
  return Number(out.trim());
}

/** waitFor polls waitid(P_PID, WNOWAIT): no event tells a subreaper that a grandchild died. */
async function peekUntilExited(pid: number) {
  for (let i = 0; i < 400; i++) {
    const w = waitid(P_PID, pid, WEXITED | WNOWAIT);
    if (w) return w;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`pid ${pid} did not exit`);
}

describe('waitid and waitpid on real processes', () => {
  it('peeks without reaping, then reaps, an orphan that exited with a code', async () => {
    setChildSubreaper(true);
    const pid = await orphan('sleep 0.1; exit 7');
    const peeked = await peekUntilExited(pid);
    expect(peeked).toMatchObject({ pid, code: CLD.EXITED, status: 7, uid: 0 });
    // still waitable after the peek
    expect(waitid(P_PID, pid, WEXITED | WNOWAIT)?.pid).toBe(pid);
    expect(waitpid(pid)).toEqual({ pid, status: { kind: 'exited', code: 7 } });
    expect(waitpid(pid)).toBeUndefined(); // gone: ECHILD is not an error
  });

  it('reports a signal as CLD_KILLED with the signal number', async () => {
    setChildSubreaper(true);
    const pid = await orphan('sleep 0.1; kill -9 $(sh -c "echo \\$PPID")');
    const w = await peekUntilExited(pid);
    expect(w).toMatchObject({ pid, code: CLD.KILLED, status: 9 });
    expect(waitid(P_PID, pid, WEXITED)?.pid).toBe(pid);
  });

  it('returns undefined when nothing is waitable', () => {
    expect(waitid(P_ALL, 0, WEXITED | WNOWAIT)).toBeUndefined();
  });
});
