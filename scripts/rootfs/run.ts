// Runs a host tool and returns its stdout; a failure names the command and carries its stderr.
import { execFile } from 'node:child_process';
import { RootfsError } from './errors.js';

export interface RunOptions {
  cwd?: string;
  /** Debian package that ships the tool, named when it is missing */
  pkg?: string;
}

export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, maxBuffer: 64 << 20, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
      (err, stdout, stderr) => {
        if (!err) return ok(stdout);
        const e = err as NodeJS.ErrnoException;
        const what = `${cmd} ${args.join(' ')}`;
        if (e.code === 'ENOENT') {
          return fail(
            new RootfsError('tool', `${cmd} not found${opts.pkg ? ` (apt-get install ${opts.pkg})` : ''}`),
          );
        }
        fail(new RootfsError('tool', `${what}: ${stderr.trim() || e.message}`, { cause: err }));
      },
    );
  });
}
