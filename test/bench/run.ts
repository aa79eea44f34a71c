// Runs every *.bench.ts under test/bench (or those named on the command line) in order and prints a summary.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { allFigures, meets } from './harness.js';

const root = fileURLToPath(new URL('.', import.meta.url));

function find(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return find(p);
      return name.endsWith('.bench.ts') ? [p] : [];
    });
}

const filters = process.argv.slice(2);
const files = find(root).filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
console.log(`Keel benchmarks on ${process.platform}/${process.arch}, node ${process.version}`);
for (const f of files) {
  console.log(`\n# ${relative(root, f)}`);
  await import(pathToFileURL(f).href);
}

const missed = allFigures().filter((f) => !meets(f));
console.log(`\n${allFigures().length} figures, ${missed.length} targets missed`);
for (const f of missed) console.log(`  missed: ${f.group} — ${f.name}: ${f.value} ${f.unit}`);
