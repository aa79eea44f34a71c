// Kubernetes' pause, the process that holds a pod's namespaces: build/pause/linux/pause.c of the
// k8s.io/kubernetes module, compiled as upstream's build/pause/Makefile does (-Os -Wall -Werror -static,
// stripped), with the host's gcc and glibc. Reproducible: no date or path gets in (the source's directory
// is mapped away, the build id is a hash of the contents).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './build.js';
import { ComponentsError } from './errors.js';

export const PAUSE_SOURCE = 'build/pause/linux/pause.c';
const PAUSE_MAKEFILE = 'build/pause/Makefile';

/** pauseTag reads the tag upstream's Makefile gives the pause image (`TAG ?= 3.10.1`). */
export function pauseTag(makefile: string): string | undefined {
  return /^TAG \?= (\S+)$/m.exec(makefile)?.[1];
}

/**
 * buildPause compiles the pause of the module unpacked at `moduleDir` to `out`, refusing a tag other than
 * its Makefile's: a Kubernetes with a new pause needs a new pin. `-v` prints `pause.c v<tag>-<revision>`,
 * the revision upstream's `git describe` there and the module's version here.
 */
export async function buildPause(
  moduleDir: string,
  tag: string,
  revision: string,
  out: string,
): Promise<void> {
  const own = pauseTag(await readFile(join(moduleDir, PAUSE_MAKEFILE), 'utf8'));
  if (own !== tag)
    throw new ComponentsError(
      'manifest',
      `pause: the manifest pins tag ${tag}, ${PAUSE_MAKEFILE} builds ${own}`,
    );
  await run('nice', [
    '-n',
    '19',
    'gcc',
    '-Os',
    '-Wall',
    '-Werror',
    '-static',
    '-s',
    `-DVERSION=v${tag}-${revision}`,
    `-ffile-prefix-map=${moduleDir}=.`,
    '-o',
    out,
    join(moduleDir, PAUSE_SOURCE),
  ]);
}
