// Kernel parameters named as upstream's resources name them: `proc.sys.<sysctl key>` under /proc/sys and
// `sys.<path>` under /sys, the key itself spelled with dots or slashes as sysctl.d(5) allows.
import { closeSync, constants, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the two prefixes point; tests lay out stand-ins under a temporary directory. */
export interface KernelParamRoots {
  readonly procSys: string;
  readonly sys: string;
}

export const PROC_SYS = '/proc/sys';
export const KERNEL_PARAM_ROOTS: KernelParamRoots = { procSys: PROC_SYS, sys: '/sys' };

export const SYSCTL_PREFIX = 'proc.sys';
export const SYSFS_PREFIX = 'sys';

/** KernelParamKeyError: a key under neither prefix names no file we may write. */
export class KernelParamKeyError extends Error {
  readonly code = 'unknown-prefix';
  constructor(readonly key: string) {
    super(`kernel parameter ${JSON.stringify(key)}: neither ${SYSCTL_PREFIX}.* nor ${SYSFS_PREFIX}.*`);
    this.name = 'KernelParamKeyError';
  }
}

/**
 * kernelParamPath is the file of a prefixed key. As sysctl.d(5): when the first separator is a dot, dots
 * separate and slashes stand for dots (`net.ipv4.conf.eth0/100.forwarding` is `…/conf/eth0.100/forwarding`);
 * when it is a slash, both stay as written.
 */
export function kernelParamPath(key: string, roots: KernelParamRoots = KERNEL_PARAM_ROOTS): string {
  const [root, rest] = key.startsWith(`${SYSCTL_PREFIX}.`)
    ? [roots.procSys, key.slice(SYSCTL_PREFIX.length + 1)]
    : key.startsWith(`${SYSFS_PREFIX}.`)
      ? [roots.sys, key.slice(SYSFS_PREFIX.length + 1)]
      : [undefined, key];
  if (root === undefined) throw new KernelParamKeyError(key);
  const sep = rest.search(/[./]/);
  const parts =
    sep !== -1 && rest[sep] === '.' ? rest.split('.').map((p) => p.replaceAll('/', '.')) : rest.split('/');
  // `..` never climbs out of the root
  return join(root, join('/', ...parts));
}

/** readKernelParam is the kernel's value as the file holds it (with its newline); ENOENT if absent. */
export const readKernelParam = (key: string, roots?: KernelParamRoots): string =>
  readFileSync(kernelParamPath(key, roots), 'utf8');

// as sysctl(8) opens them, but never creating one: a missing key is ENOENT under a stand-in root too
const WRITE_ONLY = constants.O_WRONLY | constants.O_TRUNC;

/** writeKernelParam sets one parameter; a key the kernel lacks throws ENOENT. */
export function writeKernelParam(key: string, value: string, roots?: KernelParamRoots): void {
  const fd = openSync(kernelParamPath(key, roots), WRITE_ONLY);
  try {
    writeFileSync(fd, value);
  } finally {
    closeSync(fd);
  }
}

/** hasKernelParam: whether the kernel offers the key at all (IPv6's exist only with IPv6). */
export const hasKernelParam = (key: string, roots?: KernelParamRoots): boolean =>
  existsSync(kernelParamPath(key, roots));
