// The node's durable config: `config.yaml` under the state directory (the STATE partition on a node),
// written atomically so a crash leaves either the old or the new file, never a torn one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../sys/fs/atomic-write.js';

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

/** writeConfigFile stores a file of the state directory atomically, its failure named. */
export function writeConfigFile(path: string, data: string): void {
  try {
    writeFileAtomic(path, data);
  } catch (e) {
    throw new ConfigStoreError(`cannot write ${path}: ${(e as Error).message}`, { cause: e });
  }
}

/** persistConfig stores the encoded config for the next boot. */
export const persistConfig = (stateDir: string, yaml: string): void =>
  writeConfigFile(join(stateDir, CONFIG_FILE), yaml);
