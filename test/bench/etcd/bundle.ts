// Container mode's entry bundled into one file, as the image bundles machined: run so, a container node
// carries no TypeScript loader (its own V8 isolate and the transpiled sources), and its memory is
// machined's. The capability launcher is bundled beside it, where machined looks for it.
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { API_PROTO_DIR_ENV } from '../../../src/api/proto.js';
import { PROTO_DIR_ENV } from '../../../src/cosi/api/proto.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

export interface BundledEntry {
  /** the file to run with node */
  readonly script: string;
  /** the .proto directories, which the sources find beside themselves and a bundle does not */
  readonly env: Readonly<Record<string, string>>;
}

/** bundleContainerEntry writes the bundle under node_modules/.cache (koffi resolves from there). */
export async function bundleContainerEntry(): Promise<BundledEntry> {
  const outdir = join(REPO, 'node_modules/.cache/keel-bench-etcd');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: {
      'container-entry': join(REPO, 'src/machined/container-entry.ts'),
      'cap-launcher-entry': join(REPO, 'src/machined/services/cap-launcher-entry.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['koffi'],
    // require for koffi's CommonJS, under a name of its own (the sources import createRequire too)
    banner: {
      js: "import { createRequire as keelRequire } from 'node:module'; const require = keelRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  return {
    script: join(outdir, 'container-entry.mjs'),
    env: {
      [API_PROTO_DIR_ENV]: join(REPO, 'src/api/proto'),
      [PROTO_DIR_ENV]: join(REPO, 'src/cosi/api/proto'),
    },
  };
}
