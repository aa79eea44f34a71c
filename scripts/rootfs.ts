// Builds the node's read-only root filesystem (zstd squashfs) from images/rootfs.yaml and the SEA.
// usage: node --import tsx scripts/rootfs.ts --sea DIR --prefault FILE --out FILE [--manifest images/rootfs.yaml]
//        [--version V]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildRootfs } from './rootfs/build.js';
import { RootfsError } from './rootfs/errors.js';

const repo = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sea: { type: 'string' },
      prefault: { type: 'string' },
      out: { type: 'string' },
      manifest: { type: 'string', default: repo('images/rootfs.yaml') },
      version: { type: 'string' },
    },
    strict: true,
  });
  if (!values.sea || !values.prefault || !values.out)
    throw new RootfsError(
      'usage',
      'usage: rootfs.ts --sea DIR --prefault FILE --out FILE [--manifest FILE] [--version V]',
    );
  // package.json's version by default: the build must not depend on when or where it runs
  const version =
    values.version ?? (JSON.parse(readFileSync(repo('package.json'), 'utf8')) as { version: string }).version;

  const res = await buildRootfs({
    sea: values.sea,
    prefault: values.prefault,
    out: values.out,
    manifest: values.manifest,
    osRelease: repo('images/os-release.in'),
    startTraces: repo('images/start-trace'),
    version,
    log: (l) => console.error(`rootfs: ${l}`),
  });
  console.log(`${values.out}: ${mb(res.size)} (${res.packages.length} Debian packages, version ${version})`);
  console.log('largest files (uncompressed):');
  for (const f of res.largest) console.log(`  ${mb(f.size).padStart(9)}  ${f.path}`);
}

const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

main().catch((err: unknown) => {
  console.error(err instanceof RootfsError ? `rootfs: ${err.message}` : err);
  process.exitCode = 1;
});
