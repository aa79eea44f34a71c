// The crash test: a child process writes through a durable store and is SIGKILLed at random moments;
// every write it saw resolve must survive, and nothing half-written may appear. 200 kills, each a fresh
// child, in lanes that run at once (each its own directory, kept from kill to kill so recoveries pile up);
// every delay and child seed follows from one seed, printed: KEEL_CRASH_SEED=<n> replays them.
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../../../src/cosi/resource/resource.js';
import { newDurableStore } from '../../../../src/cosi/state/durable/index.js';
import { encodePut } from '../../../../src/cosi/state/durable/record.js';
import {
  crashRegistry,
  formatOp,
  NAMESPACE,
  type OpLine,
  planResource,
  prng,
} from './fixtures/crash-plan.js';
import { useHarness } from './fixtures/harness.js';

const ITERATIONS = 200;
const LANES = 4;
const MAX_KILL_DELAY_MS = 200;
const SEED = Number(process.env.KEEL_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

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

/** runChild starts a writer, kills it `delay` ms after it reports ready, and reads its operation log. */
async function runChild(dir: string, iteration: number, seed: number, delay: number): Promise<Run> {
  // beside the store's directory, not in it: the store owns every name there
  const oplog = `${dir}.ops`;
  const child: ChildProcess = spawn(process.execPath, [writer, dir, String(iteration), String(seed), oplog], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  });
  const { code, signal } = await closed;
  clearTimeout(timer);
  const text = await readFile(oplog, 'utf8').catch(() => '');
  await rm(oplog, { force: true });
  // a line the kill cut short was never followed by its operation
  const lines = text
    .split('\n')
    .filter((l, i, all) => l !== '' && i < all.length - 1)
    .map((l) => JSON.parse(l) as OpLine);
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
    timeout: 120_000,
  }, async () => {
    console.log(`durable store crash test: seed ${SEED} (KEEL_CRASH_SEED=${SEED} replays its delays)`);
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

    let stop = false;
    const lane = async (l: number) => {
      const dir = await h.tempDir();
      const rnd = prng(SEED + l);
      const verified = new Map<string, Want>();
      for (let iteration = l; iteration < ITERATIONS && !stop; iteration += LANES) {
        const seed = Math.floor(rnd() * 2 ** 31);
        // About one kill in four comes at once, while the first writes are still opening the log.
        const delay = rnd() < 0.25 ? 0 : Math.floor(rnd() * MAX_KILL_DELAY_MS);
        const run = await runChild(dir, iteration, seed, delay);
        const where = `iteration ${iteration} (seed ${SEED}, lane ${l}, child seed ${seed}, kill after ${delay} ms)`;
        expect(run.signal, `${where}: the writer exited on its own (code ${run.code}): ${run.stderr}`).toBe(
          'SIGKILL',
        );

        // Per id: the last operation that resolved, and the one issued after it that had not.
        const done = new Map<string, OpLine>();
        const pending = new Map<string, OpLine>();
        for (const line of run.lines) {
          if (line.phase === 'B') pending.set(line.id, line);
          else {
            expect(pending.get(line.id)?.n, `${where}: D without B for ${line.id}`).toBe(line.n);
            pending.delete(line.id);
            done.set(line.id, line);
            figures.committed++;
          }
        }

        // a failure keeps the directory (as recovery left it) and the operation log for a post-mortem,
        // and stops the other lanes
        const keep = async () => {
          const kept = join(tmpdir(), `cosi-crash-kept-${SEED}-${iteration}`);
          await cp(dir, kept, { recursive: true });
          await writeFile(join(kept, 'child.log'), run.lines.map(formatOp).join(''));
          return kept;
        };
        const failed = async (message: string) => {
          stop = true;
          expect.fail(`${message} (directory kept in ${await keep()})`);
        };

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
            await failed(
              `${where}: ${id} is ${got}; expected ${describeWant(committed)}${inFlight ? ` or ${describeWant(effect(inFlight))}` : ''}`,
            );
          }
        }

        // Opening again, after the first open repaired any torn tail, gives the very same content.
        const again = await load(dir);
        expect(again.info.recovered, `${where}: second open found a torn tail`).toBeUndefined();
        expect([...again.found.keys()].sort()).toEqual([...found.keys()].sort());
        for (const [id, r] of found)
          expect(encodePut(again.found.get(id)!).equals(encodePut(r)), `${where}: ${id}`).toBe(true);
      }
    };
    const t0 = Date.now();
    // every lane ends before the test does, so none is still writing when its directory is removed
    const lanes = await Promise.allSettled(
      Array.from({ length: LANES }, (_, l) =>
        lane(l).catch((e: unknown) => {
          stop = true;
          throw e;
        }),
      ),
    );
    for (const r of lanes) if (r.status === 'rejected') throw r.reason;

    expect(figures.committed).toBeGreaterThan(0);
    console.log(
      `durable store crash test: ${ITERATIONS} kills in ${Date.now() - t0} ms, ${JSON.stringify(figures)}`,
    );
  });
});
