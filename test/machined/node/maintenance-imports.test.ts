// What PID 1 evaluates before its maintenance API listens: the modules pid1.ts reaches through static
// imports. The rest of the node (machined's start, koffi and the system calls, resources, services) is
// imported once the first client has been served, and so is the COSI State service's implementation
// (resource protobufs, YAML output); a static import of either would put its evaluation back in
// front of the first answer (≈ 0.3 s under TCG) without failing anything else.
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = 'src/machined/node/pid1.ts';

/** staticClosure lists the inputs `entry` reaches by import statements and require calls alone */
function staticClosure(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    for (const i of meta.inputs[f]?.imports ?? [])
      if (i.kind === 'import-statement' || i.kind === 'require-call') todo.push(i.path);
  }
  return seen;
}

describe("the maintenance API's import path", () => {
  it('reaches the API, the COSI state and the kernel log writer, not the rest of the node', async () => {
    const { metafile } = await build({
      absWorkingDir: ROOT,
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      outdir: 'unused',
    });
    const before = staticClosure(metafile, ENTRY);
    // what it needs
    for (const f of ['src/api/server.ts', 'src/cosi/state/inmem/index.ts', 'src/machined/pid1-guard.ts'])
      expect(before).toContain(f);
    // what waits for the first client
    const late = [...before].filter((f) =>
      /^(src\/machined\/(main|power-down|reaper|mounts)\.ts|src\/machined\/node\/run-node\.ts|src\/machined\/(sequencer|services)\/|resources\/|node_modules\/(koffi|yaml)\/|src\/cosi\/api\/server\.ts|src\/api\/cosi-access\.ts|src\/cosi\/controller\/runtime\.ts)/.test(
        f,
      ),
    );
    expect(late).toEqual([]);
    // node:fs only, no koffi: the config store's atomic write
    expect([...before].filter((f) => f.startsWith('src/sys/'))).toEqual([
      'src/sys/fs/atomic-write.ts',
      'src/sys/kmsg.ts',
      'src/sys/internal/fs-error.ts',
    ]);
    // and the whole node is still in the bundle, behind dynamic imports
    expect(Object.keys(metafile.inputs)).toContain('src/machined/node/run-node.ts');
    expect(Object.keys(metafile.inputs)).toContain('src/cosi/api/server.ts');
  }, 60_000);
});
