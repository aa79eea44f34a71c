// Cgroup placement of service processes behind a small interface, with a cgroup v2 implementation.
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { SYSTEM_CGROUP_BASE } from '../cgroups.js';
import { ServiceError } from './errors.js';

/**
 * CgroupPlacer puts a process into a cgroup. Node's spawn cannot use CLONE_INTO_CGROUP, so the pid
 * is moved right after start (upstream's fallback path): the first instructions of the child run
 * in machined's cgroup.
 */
export interface CgroupPlacer {
  /** place moves pid into the cgroup at `path` (relative to the hierarchy root), creating it */
  place(pid: number, path: string): Promise<void>;
  /** kill sends SIGKILL to every process left in the cgroup (cgroup.kill, Linux ≥ 5.14) */
  kill(path: string): Promise<void>;
  /** pids lists the processes in the cgroup */
  pids(path: string): Promise<number[]>;
  /** remove kills what is left in the cgroup, waits for it to empty, and deletes it; a missing one is fine */
  remove(path: string): Promise<void>;
}

/** cgroup2Placer writes to a mounted cgroup v2 hierarchy (normally /sys/fs/cgroup). */
export function cgroup2Placer(root = SYSTEM_CGROUP_BASE): CgroupPlacer {
  const dir = (path: string): string => {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0 || parts.includes('..'))
      throw new ServiceError('cgroup', `bad cgroup path ${JSON.stringify(path)}`);
    return join(root, ...parts);
  };
  const wrap = async <T>(what: string, path: string, op: () => Promise<T>): Promise<T> => {
    try {
      return await op();
    } catch (cause) {
      throw new ServiceError('cgroup', `cgroup ${path}: ${what}`, { cause });
    }
  };
  return {
    place: (pid, path) =>
      wrap('placing process', path, async () => {
        await mkdir(dir(path), { recursive: true });
        await writeFile(join(dir(path), 'cgroup.procs'), `${pid}\n`);
      }),
    kill: (path) => wrap('killing processes', path, () => writeFile(join(dir(path), 'cgroup.kill'), '1\n')),
    pids: (path) =>
      wrap('listing processes', path, async () =>
        (await readFile(join(dir(path), 'cgroup.procs'), 'utf8'))
          .split('\n')
          .filter((l) => l !== '')
          .map(Number),
      ),
    remove: (path) =>
      wrap('removing', path, async () => {
        try {
          await writeFile(join(dir(path), 'cgroup.kill'), '1\n');
          await emptied(dir(path));
          await rmdir(dir(path));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        }
      }),
  };
}

/** emptied polls cgroup.events until no process is left (killed processes take a moment to exit). */
async function emptied(dir: string, limitMs = 2000): Promise<void> {
  for (let waited = 0; ; waited += 10) {
    const events = await readFile(join(dir, 'cgroup.events'), 'utf8');
    if (/^populated 0$/m.test(events)) return;
    if (waited >= limitMs) throw new Error('processes left after cgroup.kill');
    await delay(10);
  }
}
