// The node's durable config: `config.yaml` under the state directory (the STATE partition on a node),
// written atomically so a crash leaves either the old or the new file, never a torn one.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const CONFIG_FILE = 'config.yaml';

export class ConfigStoreError extends Error {
  constructor(message: string, opts?: ErrorOptions) {
    super(message, opts);
    this.name = 'ConfigStoreError';
  }
}

/** readPersistedConfig returns the stored config text, or undefined when there is none. */
export function readPersistedConfig(stateDir: string): string | undefined {
  try {
    return readFileSync(join(stateDir, CONFIG_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigStoreError(`cannot read ${CONFIG_FILE}: ${(e as Error).message}`, { cause: e });
  }
}

/** writeFileAtomic: temp file, fsync, rename over the target, fsync the directory. */
export function writeFileAtomic(path: string, data: string): void {
  const dir = dirname(path);
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    const dfd = openSync(dir, 'r');
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch (e) {
    throw new ConfigStoreError(`cannot write ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** persistConfig stores the encoded config for the next boot. */
export const persistConfig = (stateDir: string, yaml: string): void =>
  writeFileAtomic(join(stateDir, CONFIG_FILE), yaml);
