// The crash test: a child process writes through a durable store and is SIGKILLed at random moments;
// every write it saw resolve must survive, and nothing half-written may appear.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../../../src/cosi/resource/resource.js';
import { newDurableStore } from '../../../../src/cosi/state/durable/index.js';
import { encodePut } from '../../../../src/cosi/state/durable/record.js';
import { crashRegistry, NAMESPACE, type OpLine, planResource } from './fixtures/crash-plan.js';
import { useHarness } from './fixtures/harness.js';

const ITERATIONS = 40;
const MAX_KILL_DELAY_MS = 300;

const h = useHarness();
let bundleDir: string;
let writer: string;

beforeAll(async () => {
  // One bundle for all iterations: a child then starts in plain node, without compiling TypeScript.
  bundleDir = await mkdtemp(join(tmpdir(), 'cosi-crash-bundle-'));
  writer = join(bundleDir, 'crash-writer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url))],
    outfile: writer,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // Bundled CommonJS dependencies require node built-ins, which an ES module has to provide.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
});

afterAll(async () => {
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
});

/** What a resource should be after an operation: absent, or exactly the planned put. */
type Want = { readonly kind: 'absent' } | { readonly kind: 'put'; readonly op: OpLine };

const ABSENT: Want = { kind: 'absent' };
const effect = (op: OpLine): Want => (op.op === 'destroy' ? ABSENT : { kind: 'put', op });
const describeWant = (w: Want) =>
  w.kind === 'absent' ? 'absent' : `put #${w.op.n} of iteration ${w.op.iteration}`;

/** matches compares whole encoded records: every metadata field and every spec byte. */
function matches(actual: Resource | undefined, want: Want): boolean {
  if (want.kind === 'absent') return actual === undefined;
  return actual !== undefined && encodePut(actual).equals(encodePut(planResource(want.op)));
}

interface Run {
  readonly lines: OpLine[];
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly stderr: string;
}

/** runChild starts a writer, kills it `delay` ms after it reports ready, and collects its log. */
async function runChild(dir: string, iteration: number, seed: number, delay: number): Promise<Run> {
  const child: ChildProcess = spawn(process.execPath, [writer, dir, String(iteration), String(seed)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: OpLine[] = [];
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const closed = new Promise<Pick<Run, 'signal' | 'code'>>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  let timer: NodeJS.Timeout | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') timer = setTimeout(() => child.kill('SIGKILL'), delay);
    else lines.push(JSON.parse(line) as OpLine);
  });
  const { code, signal } = await closed;
  clearTimeout(timer);
  return { lines, code, signal, stderr };
}

const load = async (dir: string) => {
  const store = newDurableStore({ dir, registry: crashRegistry(), namespace: NAMESPACE });
  const found = new Map<string, Resource>();
  try {
    await store.load((r) => found.set(r.metadata.id, r));
    return { found, info: store.info() };
  } finally {
    await store.close();
  }
};

describe('durable store under SIGKILL', () => {
  it(`keeps every committed write and tears none, over ${ITERATIONS} kills`, {
    timeout: 90_000,
  }, async () => {
    const dir = await h.tempDir();
    const verified = new Map<string, Want>();
    const figures = {
      committed: 0,
      inFlightAtKill: 0,
      inFlightLanded: 0,
      tornTails: 0,
      /** kills that left a temp file or more than one log: inside a rotation or a snapshot */
      killedMidCompaction: 0,
      snapshots: 0,
      maxResources: 0,
    };

    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const seed = Math.floor(Math.random() * 2 ** 31);
      // Every fourth kill comes at once, while the first writes are still opening the log.
      const delay = iteration % 4 === 0 ? 0 : Math.floor(Math.random() * MAX_KILL_DELAY_MS);
      const run = await runChild(dir, iteration, seed, delay);
      const where = `iteration ${iteration} (seed ${seed}, kill after ${delay} ms)`;
      expect(run.signal, `${where}: the writer exited on its own (code ${run.code}): ${run.stderr}`).toBe(
        'SIGKILL',
      );

      // Per id: the last operation that resolved, and the one issued after it that had not.
      const done = new Map<string, OpLine>();
      const pending = new Map<string, OpLine>();
      for (const l of run.lines) {
        if (l.phase === 'B') pending.set(l.id, l);
        else {
          expect(pending.get(l.id)?.n, `${where}: D without B for ${l.id}`).toBe(l.n);
          pending.delete(l.id);
          done.set(l.id, l);
          figures.committed++;
        }
      }

      const files = await readdir(dir);
      if (files.some((f) => f.endsWith('.tmp')) || files.filter((f) => f.startsWith('log.')).length > 1)
        figures.killedMidCompaction++;
      const { found, info } = await load(dir);
      if (info.recovered) figures.tornTails++;
      figures.snapshots = Math.max(figures.snapshots, info.snapshotGeneration);
      figures.maxResources = Math.max(figures.maxResources, found.size);
      const ids = new Set([...verified.keys(), ...done.keys(), ...pending.keys(), ...found.keys()]);
      for (const id of ids) {
        const last = done.get(id);
        const committed: Want = last ? effect(last) : (verified.get(id) ?? ABSENT);
        const inFlight = pending.get(id);
        const actual = found.get(id);
        if (inFlight) figures.inFlightAtKill++;
        if (matches(actual, committed)) {
          verified.set(id, committed);
        } else if (inFlight && matches(actual, effect(inFlight))) {
          figures.inFlightLanded++;
          verified.set(id, effect(inFlight));
        } else {
          const got = actual
            ? `version ${actual.metadata.version}, labels ${JSON.stringify(actual.metadata.labels.raw())}`
            : 'absent';
          expect.fail(
            `${where}: ${id} is ${got}; expected ${describeWant(committed)}${inFlight ? ` or ${describeWant(effect(inFlight))}` : ''}`,
          );
        }
      }

      // Opening again, after the first open repaired any torn tail, gives the very same content.
      const again = await load(dir);
      expect(again.info.recovered, `${where}: second open found a torn tail`).toBeUndefined();
      expect([...again.found.keys()].sort()).toEqual([...found.keys()].sort());
      for (const [id, r] of found)
        expect(encodePut(again.found.get(id)!).equals(encodePut(r)), id).toBe(true);
    }

    expect(figures.committed).toBeGreaterThan(0);
    console.log(`crash test: ${ITERATIONS} kills, ${JSON.stringify(figures)}`);
  });
});
