// posix_spawn(3) from Node: start a program without forking the caller. glibc clones with CLONE_VM |
// CLONE_VFORK, so none of a large process's page tables are copied and none of its pages turn
// copy-on-write; the call runs on one of koffi's worker threads, so the event loop goes on while the
// child execs. Reaping the child is the caller's business (posix_spawn leaves it a plain child).
import { SysError } from './errno.js';
import { libc } from './libc.js';

const O_RDONLY = 0;
const O_WRONLY = 1;
const POSIX_SPAWN_SETSIGDEF = 0x04;
const POSIX_SPAWN_SETSIGMASK = 0x08;
// glibc's posix_spawn_file_actions_t is 80 bytes, posix_spawnattr_t 336 and sigset_t 128: room to spare
const FILE_ACTIONS_SIZE = 128;
const ATTR_SIZE = 512;
const SIGSET_SIZE = 128;

const spawn_ = libc.func(
  'int posix_spawn(void *pid, const char *path, void *actions, void *attr, const char **argv, const char **envp)',
);
const actionsInit = libc.func('int posix_spawn_file_actions_init(void *actions)');
const actionsDestroy = libc.func('int posix_spawn_file_actions_destroy(void *actions)');
const addOpen = libc.func(
  'int posix_spawn_file_actions_addopen(void *actions, int fd, const char *path, int oflag, uint32_t mode)',
);
const addDup2 = libc.func('int posix_spawn_file_actions_adddup2(void *actions, int fd, int newfd)');
const addChdir = libc.func('int posix_spawn_file_actions_addchdir_np(void *actions, const char *path)');
const attrInit = libc.func('int posix_spawnattr_init(void *attr)');
const attrDestroy = libc.func('int posix_spawnattr_destroy(void *attr)');
const setFlags = libc.func('int posix_spawnattr_setflags(void *attr, short flags)');
const setSigmask = libc.func('int posix_spawnattr_setsigmask(void *attr, const void *set)');
const setSigdefault = libc.func('int posix_spawnattr_setsigdefault(void *attr, const void *set)');

export interface SpawnRequest {
  /** the program's absolute path: there is no PATH search */
  readonly path: string;
  /** argv[0] included */
  readonly argv: readonly string[];
  /** the child's whole environment, as KEY=VALUE */
  readonly env: readonly string[];
  readonly cwd?: string;
  /** descriptors that become the child's fd 1 and fd 2; /dev/null when absent (stdin always is) */
  readonly stdout?: number;
  readonly stderr?: number;
}

/** the posix_spawn family returns an errno instead of setting it */
function must(rc: number, call: string, ...args: unknown[]): void {
  if (rc !== 0) throw new SysError(call, rc, args);
}

/**
 * posixSpawn starts the program with every signal at its default disposition and none blocked (Node
 * ignores SIGPIPE, which a child would otherwise inherit), and resolves with its pid once it has exec'd.
 * It rejects with a SysError when it could not (ENOENT, EACCES …): glibc reports a failed exec too.
 */
export function posixSpawn(req: SpawnRequest): Promise<number> {
  const actions = Buffer.alloc(FILE_ACTIONS_SIZE);
  const attr = Buffer.alloc(ATTR_SIZE);
  must(actionsInit(actions), 'posix_spawn_file_actions_init');
  must(attrInit(attr), 'posix_spawnattr_init');
  const release = () => {
    actionsDestroy(actions);
    attrDestroy(attr);
  };
  try {
    must(addOpen(actions, 0, '/dev/null', O_RDONLY, 0), 'posix_spawn_file_actions_addopen', '/dev/null');
    for (const [fd, from] of [
      [1, req.stdout],
      [2, req.stderr],
    ] as const) {
      if (from === undefined)
        must(addOpen(actions, fd, '/dev/null', O_WRONLY, 0), 'posix_spawn_file_actions_addopen', '/dev/null');
      else must(addDup2(actions, from, fd), 'posix_spawn_file_actions_adddup2', from, fd);
    }
    if (req.cwd !== undefined)
      must(addChdir(actions, req.cwd), 'posix_spawn_file_actions_addchdir_np', req.cwd);
    const none = Buffer.alloc(SIGSET_SIZE);
    // signals 1-64 by hand: sigfillset leaves out glibc's two internal ones, which the child would then
    // start with ignored (a child started by Node has every signal at its default)
    const all = Buffer.alloc(SIGSET_SIZE);
    all.fill(0xff, 0, 8);
    must(setSigmask(attr, none), 'posix_spawnattr_setsigmask');
    must(setSigdefault(attr, all), 'posix_spawnattr_setsigdefault');
    must(setFlags(attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK), 'posix_spawnattr_setflags');
  } catch (e) {
    release();
    throw e;
  }
  const pid = Buffer.alloc(4);
  return new Promise((resolve, reject) => {
    const done = (err: unknown, rc: number) => {
      release();
      if (err) reject(err);
      else if (rc !== 0) reject(new SysError('posix_spawn', rc, [req.path]));
      else resolve(pid.readInt32LE(0));
    };
    try {
      spawn_.async(pid, req.path, actions, attr, [...req.argv, null], [...req.env, null], done);
    } catch (e) {
      done(e, -1); // koffi could not queue the call (its queue full, an argument that would not convert)
    }
  });
}
