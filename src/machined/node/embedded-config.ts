// The embedded config's directory, masked once its config has been read: as upstream, an empty read-only
// tmpfs over it, so no workload can read the config (and its secrets) from the root filesystem.
import { dirname } from 'node:path';
import { MS, mount } from '../../sys/mount.js';
import { EMBEDDED_CONFIG_PATH } from './config-sources.js';

/** maskEmbeddedConfig hides the directory of `path`; a failure is logged, as the node can run without it. */
export function maskEmbeddedConfig(log: (line: string) => void, path: string = EMBEDDED_CONFIG_PATH): void {
  const dir = dirname(path);
  try {
    mount('tmpfs', dir, 'tmpfs', { flags: MS.RDONLY | MS.NOSUID | MS.NODEV | MS.NOEXEC, data: 'mode=0700' });
  } catch (e) {
    log(`config: cannot mask ${dir}, the embedded config stays readable: ${(e as Error).message}`);
  }
}
