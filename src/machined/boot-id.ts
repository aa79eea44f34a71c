// The kernel's boot id: a random UUID chosen once per boot, readable by anyone.
import { readFileSync } from 'node:fs';

export const BOOT_ID_PATH = '/proc/sys/kernel/random/boot_id';

/** readBootId returns the boot id without its trailing newline. */
export const readBootId = (path = BOOT_ID_PATH): string => readFileSync(path, 'utf8').trim();
