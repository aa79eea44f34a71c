// The pids Node's child_process started. libuv reaps those itself with waitpid(pid); if the reaper took
// their statuses first, their 'exit' events would never fire. So every ChildProcess registers here.
import { ChildProcess } from 'node:child_process';

const owned = new Set<number>();
let installed = false;

/** isNodeOwned tells whether `pid` belongs to a ChildProcess whose exit libuv has not yet reported. */
export const isNodeOwned = (pid: number): boolean => owned.has(pid);

/** nodeOwnedCount is how many such children are alive or not yet reported. */
export const nodeOwnedCount = (): number => owned.size;

/**
 * installChildGuard wraps ChildProcess.prototype.spawn once, so spawn, exec, execFile and fork all register
 * their pid before any JavaScript (and so any reaper scan) can run. spawnSync reaps inside the call and
 * needs no guard. The pid is released on 'exit', after libuv has reaped it.
 */
export function installChildGuard(): void {
  if (installed) return;
  installed = true;
  // spawn is public at run time but absent from the type declarations
  const proto = ChildProcess.prototype as unknown as {
    spawn: (this: ChildProcess, ...a: unknown[]) => unknown;
  };
  const original = proto.spawn;
  proto.spawn = function guardedSpawn(this: ChildProcess, ...args: unknown[]) {
    const ret = original.apply(this, args);
    const pid = this.pid;
    if (pid !== undefined) {
      owned.add(pid);
      this.once('exit', () => owned.delete(pid));
    }
    return ret;
  };
}
