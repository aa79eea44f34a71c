// The single executable's pluralize answers (scripts/sea.ts pluralPlugin): a bundle made with the plugin
// derives every resource definition exactly as pluralize does, from the table or, for a name not in it,
// from pluralize itself.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pluralTable, RESOURCE_TYPES } from '../../scripts/sea/plurals.js';
import { pluralPlugin } from '../../scripts/sea.js';
import { fillDefinition } from '../../src/cosi/resource/definition.js';
import { defaultRegistry } from '../../src/cosi/resource/registry.js';
import { type BundledEntry, bundleEntry, REPO as repo } from './bundle-entry.js';

/** a type no table holds, with an irregular plural */
const UNKNOWN = { type: 'Mice.example.dev', defaultNamespace: 'example' };

const ENTRY = `
import { RESOURCE_TYPES } from ${JSON.stringify(join(repo, 'scripts/sea/plurals.ts'))};
import { fillDefinition } from ${JSON.stringify(join(repo, 'src/cosi/resource/definition.ts'))};
const out = RESOURCE_TYPES.map((t) => t.definition);
out.push(fillDefinition(${JSON.stringify(UNKNOWN)}));
process.stdout.write(JSON.stringify(out));
`;

let bundled: BundledEntry;
beforeAll(async () => {
  bundled = await bundleEntry(ENTRY, [pluralPlugin]);
}, 120_000);

afterAll(() => bundled?.remove());

describe('the bundled plural table', () => {
  it('holds every registered type, each a plural name with its singular', () => {
    const table = pluralTable();
    expect(Object.keys(table)).toHaveLength(RESOURCE_TYPES.length);
    expect(table.MachineStatuses).toEqual({ isPlural: true, singular: 'MachineStatus' });
    expect(table.UNKNOWN).toBeUndefined();
  });

  it('misses no type a resources/ room registers (a miss loads pluralize on the node, 0.2 s under TCG)', async () => {
    const rooms = readdirSync(join(repo, 'resources'), { withFileTypes: true }).filter((d) =>
      d.isDirectory(),
    );
    for (const room of rooms) await import(join(repo, 'resources', room.name, 'index.ts'));
    const names = new Set(Object.keys(pluralTable()));
    const missing = defaultRegistry.types().filter((t) => !names.has(t.slice(0, t.indexOf('.'))));
    expect(missing).toEqual([]);
  });

  it('derives every definition as pluralize does, and a name not in the table through pluralize', () => {
    // definition.ts got the table, not pluralize
    expect(readFileSync(bundled.file, 'utf8')).toContain('keel-sea:pluralize-table');
    const got = JSON.parse(execFileSync(process.execPath, [bundled.file], { encoding: 'utf8' })) as unknown[];
    const want = [...RESOURCE_TYPES.map((t) => t.definition), fillDefinition(UNKNOWN)];
    expect(got).toEqual(JSON.parse(JSON.stringify(want)));
    expect((got.at(-1) as { displayType: string }).displayType).toBe('Mouse');
  });
});
