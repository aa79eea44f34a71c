// keelctl config: contexts, context, merge, endpoint, node and info, editing a temp talosconfig.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeTalosconfig, encodeTalosconfig } from '../../../src/config/generate/talosconfig.js';
import { run, type Workdir, workdir } from '../fixtures.js';

let wd: Workdir;
beforeEach(async () => {
  wd = await workdir('10.5.0.2', ['10.5.0.2']);
});
afterEach(() => wd.remove());

const read = () => decodeTalosconfig(readFileSync(wd.talosconfig, 'utf8'));
const env = () => ({ TALOSCONFIG: wd.talosconfig });

/** addContext writes a second talosconfig holding `name` and returns its path. */
const otherConfig = (name: string) => {
  const cfg = read();
  const path = join(wd.dir, `${name}.yaml`);
  writeFileSync(
    path,
    encodeTalosconfig({
      context: name,
      contexts: { [name]: { ...cfg.contexts.test!, endpoints: ['10.5.0.9'] } },
    }),
  );
  return path;
};

describe('keelctl config', () => {
  it('lists contexts with the current one starred', async () => {
    const r = await run(['config', 'contexts'], env());
    expect(r.stdout).toBe('CURRENT   NAME   ENDPOINTS   NODES\n*         test   10.5.0.2    10.5.0.2\n');
  });

  it('merges a talosconfig, renaming a clashing context and making it current', async () => {
    const r = await run(['config', 'merge', otherConfig('test')], env());
    expect(r.stdout).toBe('renamed talosconfig context "test" -> "test-1"\n');
    const cfg = read();
    expect(cfg.context).toBe('test-1');
    expect(Object.keys(cfg.contexts).sort()).toEqual(['test', 'test-1']);
    expect(cfg.contexts['test-1']!.endpoints).toEqual(['10.5.0.9']);
  });

  it('switches the current context, refusing an unknown one', async () => {
    await run(['config', 'merge', otherConfig('prod')], env());
    expect((await run(['config', 'context', 'test'], env())).code).toBe(0);
    expect(read().context).toBe('test');
    const bad = await run(['config', 'context', 'nope'], env());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: context "nope" is not defined\n');
    expect(read().context).toBe('test');
  });

  it('sets the endpoints and nodes of the current context', async () => {
    await run(['config', 'endpoint', '10.5.0.3', '10.5.0.4'], env());
    await run(['config', 'node', '10.5.0.5'], env());
    const ctx = read().contexts.test!;
    expect(ctx.endpoints).toEqual(['10.5.0.3', '10.5.0.4']);
    expect(ctx.nodes).toEqual(['10.5.0.5']);
  });

  it('prints the current context, its targets and its certificate', async () => {
    const r = await run(['config', 'info'], env());
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      'Current context:     test',
      'Nodes:               10.5.0.2',
      'Endpoints:           10.5.0.2',
      'Roles:               os:admin',
    ]);
    // admin certificates are minted for a year
    expect(lines[4]).toMatch(/^Certificate expires: 1 year from now \(\d{4}-\d\d-\d\d\)$/);
  });

  it('reads --talosconfig over the environment', async () => {
    const r = await run(['config', 'contexts', '--talosconfig', wd.talosconfig], {
      TALOSCONFIG: '/nonexistent',
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('test');
  });
});
