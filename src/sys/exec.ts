// execve(2) from Node: replaces the whole process image, so stdio must first survive the exec.
import { SysError } from './errno.js';
import { setCloexec } from './fcntl.js';
import { lastErrno, libc } from './libc.js';

const execve_ = libc.func('int execve(const char *path, const char **argv, const char **envp)');

/**
 * execve replaces the process. Node marks fds 0–2 close-on-exec, so they are cleared first or the new
 * program starts without a console. It returns only by throwing.
 */
export function execve(path: string, argv: readonly string[], env: NodeJS.ProcessEnv = process.env): never {
  for (const fd of [0, 1, 2]) setCloexec(fd, false);
  const envp = Object.entries(env)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  execve_(path, [...argv, null], [...envp, null]);
  throw new SysError('execve', lastErrno(), [path]);
}
