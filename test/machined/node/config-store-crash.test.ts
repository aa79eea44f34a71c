// The config store under kill -9: a child stores two configs of a few hundred KiB by turns through the
// node's write path (persistConfig, writeFileAtomic) and is SIGKILLed at a seeded random moment; after
// each of 200 kills, each a fresh child, config.yaml must be the old config or the new one, whole.
// KEEL_CRASH_SEED=<n> replays a run's kill delays.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/api/machine-stateful/index.js';
import { encode, generateConfigs, mintSecrets } from '../../../src/config/index.js';
import { CONFIG_FILE, persistConfig } from '../../../src/machined/node/config-store.js';
import { mulberry32 } from '../../seeded-random.js';

const RUNS = 200;
/** kills run in this many lanes at once, each with its own state directory */
const LANES = 4;
/** the kill comes up to this long after the child is ready: several whole writes on a disk that syncs */
const MAX_KILL_DELAY_MS = 40;
const PAD_BYTES = 384 * 1024;
const SEED = Number(process.env.KEEL_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

let work: string;
let writer: string;
let configA: string;
let configB: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'keel-config-crash-'));
  // one small bundle of the child and the write path, so each start is a plain node start
  writer = join(work, 'config-writer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('./fixtures/config-writer.ts', import.meta.url))],
    outfile: writer,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  // two real configs, padded with comment lines to a size whose write takes a while
  const generated = generateConfigs({
    clusterName: 'crash',
    endpoint: 'https://10.5.0.2:6443',
    secrets: await mintSecrets(),
  });
  const pad = (cfg: string, c: string) => `${cfg}${`# ${c.repeat(98)}\n`.repeat(Math.ceil(PAD_BYTES / 101))}`;
  configA = pad(encode(generated.worker), 'a');
  configB = pad(encode(generated.controlplane), 'b');
  for (const text of [configA, configB]) parseConfig(Buffer.from(text), 'metal');
  await writeFile(join(work, 'a.yaml'), configA);
  await writeFile(join(work, 'b.yaml'), configB);
}, 60_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

interface Killed {
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly stderr: string;
}

/** killChild starts a writer and SIGKILLs it `delay` ms after it is ready. */
async function killChild(stateDir: string, delay: number): Promise<Killed> {
  const child = spawn(process.execPath, [writer, stateDir, join(work, 'a.yaml'), join(work, 'b.yaml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let timer: NodeJS.Timeout | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') timer = setTimeout(() => child.kill('SIGKILL'), delay);
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  return { signal, code, stderr };
}

describe('config store under SIGKILL', () => {
  it(`leaves the old or the new config, never a torn one, over ${RUNS} kills`, {
    timeout: 120_000,
  }, async () => {
    console.log(`config store crash test: seed ${SEED} (KEEL_CRASH_SEED=${SEED} replays its delays)`);
    const figures = { old: 0, new: 0, tempLeft: 0 };
    let stop = false;
    const lane = async (l: number) => {
      const rnd = mulberry32(SEED + l);
      const stateDir = join(work, `state-${l}`);
      for (let i = l; i < RUNS && !stop; i += LANES) {
        // what the file holds before this child starts: the old config
        const old = i % 2 === 0 ? configA : configB;
        persistConfig(stateDir, old);
        const delay = Math.floor(rnd() * MAX_KILL_DELAY_MS);
        const where = `run ${i} (seed ${SEED}, lane ${l}, kill ${delay} ms after ready)`;
        // the child writes B first, then A: started over A it changes the file, over B it first rewrites it
        const run = await killChild(stateDir, delay);
        expect(run.signal, `${where}: the writer ended on its own (code ${run.code}): ${run.stderr}`).toBe(
          'SIGKILL',
        );
        const got = await readFile(join(stateDir, CONFIG_FILE), 'utf8');
        const whole = got === configA || got === configB;
        expect(
          whole,
          `${where}: config.yaml is ${got.length} bytes, neither config (${configA.length} or ${configB.length})`,
        ).toBe(true);
        if (got === old) figures.old++;
        else figures.new++;
        // a kill between the temp file's creation and its rename leaves it (named for the dead pid)
        const temps = (await readdir(stateDir)).filter((f) => f.includes('.tmp-'));
        if (temps.length > 0) figures.tempLeft++;
        for (const f of temps) await rm(join(stateDir, f));
      }
    };
    const t0 = Date.now();
    // every lane ends before the test does: a failure stops the others at their next run
    const lanes = await Promise.allSettled(
      Array.from({ length: LANES }, (_, l) =>
        lane(l).catch((e: unknown) => {
          stop = true;
          throw e;
        }),
      ),
    );
    for (const r of lanes) if (r.status === 'rejected') throw r.reason;
    console.log(
      `config store crash test: ${RUNS} kills in ${Date.now() - t0} ms; file left old ${figures.old}, new ${figures.new}; killed with a temp file open ${figures.tempLeft}`,
    );
  });
});
