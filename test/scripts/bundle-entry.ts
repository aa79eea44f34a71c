// Bundles a small entry as the single executable's build does (CommonJS for Node 20) with the given
// plugins, so a test can run what a plugin of scripts/sea.ts makes of the code in a plain node.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

export const REPO = resolve(import.meta.dirname, '../..');

export interface BundledEntry {
  /** the bundle, to run with process.execPath */
  readonly file: string;
  readonly remove: () => void;
}

/** bundleEntry bundles `contents` (TypeScript, resolved from the repository) into a temporary file. */
export async function bundleEntry(contents: string, plugins: Plugin[]): Promise<BundledEntry> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-bundle-entry-'));
  const file = join(dir, 'out.cjs');
  try {
    await build({
      stdin: { contents, resolveDir: REPO, sourcefile: 'entry.ts', loader: 'ts' },
      outfile: file,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      absWorkingDir: REPO,
      plugins,
      logLevel: 'silent',
    });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
