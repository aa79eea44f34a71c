// The walls between rooms: import directions of the architecture, checked on every source file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') ? [p] : [];
  });
}

/** importsOf lists the module specifiers of static and dynamic imports and re-exports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]/g))
    specs.push(m[1]!);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g)) specs.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]!);
  return specs;
}

const room = (abs: string) => relative(root, abs).split('/').slice(0, 2).join('/');

describe('import directions', () => {
  const files = ['src', 'resources', 'controllers'].flatMap((d) => sources(join(root, d)));

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it('src/cosi imports nothing outside src/cosi but node built-ins and its own packages (vitest in testing/)', () => {
    const allowed = new Set(['@grpc/grpc-js', '@grpc/proto-loader', 'yaml', 'pluralize']);
    const bad: string[] = [];
    for (const f of files.filter((x) => relative(root, x).startsWith('src/cosi/'))) {
      for (const s of importsOf(f)) {
        if (s.startsWith('.')) {
          if (!relative(root, resolve(dirname(f), s)).startsWith('src/cosi/'))
            bad.push(`${relative(root, f)} → ${s}`);
        } else if (
          !s.startsWith('node:') &&
          !allowed.has(s) &&
          !(s === 'vitest' && relative(root, f).startsWith('src/cosi/testing/'))
        )
          bad.push(`${relative(root, f)} → ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('nothing imports src/machined or src/cli from another room', () => {
    const bad: string[] = [];
    for (const f of files) {
      for (const s of importsOf(f).filter((x) => x.startsWith('.'))) {
        const target = room(resolve(dirname(f), s));
        if ((target === 'src/machined' || target === 'src/cli') && room(f) !== target)
          bad.push(`${relative(root, f)} → ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('resources import only src/cosi; controllers never import src/api', () => {
    const bad: string[] = [];
    for (const f of files) {
      const from = relative(root, f).split('/')[0];
      for (const s of importsOf(f).filter((x) => x.startsWith('.'))) {
        const to = relative(root, resolve(dirname(f), s));
        if (from === 'resources' && !(to.startsWith('resources/') || to.startsWith('src/cosi/')))
          bad.push(`${relative(root, f)} → ${s}`);
        if (from === 'controllers' && to.startsWith('src/api/')) bad.push(`${relative(root, f)} → ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('src/install imports only src/sys and node built-ins', () => {
    const bad: string[] = [];
    for (const f of files.filter((x) => relative(root, x).startsWith('src/install/'))) {
      for (const s of importsOf(f)) {
        if (s.startsWith('.')) {
          const to = relative(root, resolve(dirname(f), s));
          if (!to.startsWith('src/install/') && !to.startsWith('src/sys/'))
            bad.push(`${relative(root, f)} → ${s}`);
        } else if (!s.startsWith('node:')) bad.push(`${relative(root, f)} → ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
