// `make run DISK=file`: the virtual disk a node installs itself to. A missing file is made (sparse); a
// disk an install has written (a GPT with the installer's EFI and META) is booted from, anything else is
// attached beside the ISO for the install to take.
import { closeSync, existsSync, openSync, truncateSync, writeFileSync } from 'node:fs';
import { isGptError, partitionByName, readGpt } from '../../src/sys/block/gpt/index.js';

/** the size of a disk `make run` makes: room for the install, STATE and an 8 GiB-class EPHEMERAL */
export const RUN_DISK_BYTES = 10 * 2 ** 30;

export type RunDisk = 'installed' | 'blank';

/** runDisk makes `path` when it is missing and tells whether an install has written it. */
export async function runDisk(path: string, bytes = RUN_DISK_BYTES): Promise<RunDisk> {
  if (!existsSync(path)) {
    writeFileSync(path, '', { flag: 'wx' });
    truncateSync(path, bytes);
    return 'blank';
  }
  const fd = openSync(path, 'r');
  try {
    const { table } = await readGpt(fd);
    return partitionByName(table, 'EFI') && partitionByName(table, 'META') ? 'installed' : 'blank';
  } catch (e) {
    if (isGptError(e)) return 'blank';
    throw e;
  } finally {
    closeSync(fd);
  }
}
