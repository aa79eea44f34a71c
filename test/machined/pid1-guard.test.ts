// PID 1's guard (guardPid1) in a child process: every fatal error and any process.exit take the emergency
// path, the one handed over if any, and the process never exits by itself.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const fixture = join(ROOT, 'test/machined/fixtures/guard.ts');

/** runs the fixture until a line matches `until`, then kills it; resolves with its output and whether it had exited */
function guarded(what: string, until: RegExp): Promise<{ out: string; exitedAlone: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, what], { cwd: ROOT });
    let out = '';
    let exitedAlone = true;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no line matching ${until} within 30 s:\n${out}`));
    }, 30_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      // a little longer than the match, so an exit that would follow it is seen
      if (until.test(out) && exitedAlone)
        setTimeout(() => {
          if (child.exitCode === null) {
            exitedAlone = false;
            child.kill('SIGKILL');
          }
        }, 300);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve({ out, exitedAlone });
    });
  });
}

describe('guardPid1', () => {
  it('takes an uncaught error to the power-down before anyone took over, and stays up', async () => {
    const r = await guarded('throw', /power-down failed/);
    expect(r.out).toContain('emergency: uncaughtException: Error: boom (throw)');
    // outside PID 1 the power-down refuses to run, which shows the path was the built-in one
    expect(r.out).toMatch(/power-down failed: .*refusing to run outside PID 1/);
    expect(r.exitedAlone).toBe(false);
  }, 40_000);

  it('runs the path handed over instead', async () => {
    const r = await guarded('takeover', /taken over/);
    expect(r.out).toContain('taken over: uncaughtException: boom (takeover)');
    expect(r.out).not.toContain('power-down');
    expect(r.exitedAlone).toBe(false);
  }, 40_000);

  it('turns a stray process.exit into the emergency path', async () => {
    const r = await guarded('exit', /taken over/);
    expect(r.out).toContain('taken over: fatal: process.exit(3) called in PID 1');
    expect(r.exitedAlone).toBe(false);
  }, 40_000);
});
