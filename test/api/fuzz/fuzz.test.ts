// The API under a seeded fuzz (issue 33): random and mutated protobuf messages to every RPC, mutated configs
// to ApplyConfiguration, garbage on the TLS port, against a container node in its own process. Every case
// ends in a well-formed status, the node stays up and answers, and its log shows no uncaught error.
// KEEL_FUZZ_SEED replays another seed; `make bench BENCH=fuzz` runs a longer campaign.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup } from '../../machined/node/harness.js';
import { fuzz } from './campaign.js';
import { emergencies, type FuzzNode, fuzzNode } from './node.js';

const SEED = Number(process.env.KEEL_FUZZ_SEED ?? 1);
let target: FuzzNode;

beforeAll(async () => {
  target = await fuzzNode();
}, 120_000);
afterAll(cleanup);

describe('the API under a seeded fuzz', () => {
  it(`answers or refuses every case of seed ${SEED}, and stays up`, async () => {
    const report = await fuzz(target, { seed: SEED, cases: 3_000, budgetMs: 45_000 });
    console.log(
      `fuzz: ${report.cases} cases in ${report.ms} ms: ${JSON.stringify(report.outcomes)}; trustd: ${JSON.stringify(report.trustd)}`,
    );
    if (process.env.KEEL_FUZZ_VERBOSE) console.log(JSON.stringify(report.messages, null, 1));
    expect(report.failures).toEqual([]);
    expect(report.cases).toBeGreaterThan(300);
    // the cases reached handlers, not only the gate: some answered, some were refused as bad input
    expect(report.outcomes.OK).toBeGreaterThan(0);
    expect(report.outcomes.INVALID_ARGUMENT).toBeGreaterThan(0);
    // trustd's port met garbage, and its Certificate signed some requests and refused others
    expect(
      Object.keys(report.trustd).some((o) => /^(tls|tcp) /.test(o)),
      JSON.stringify(report.trustd),
    ).toBe(true);
    expect(report.trustd.OK).toBeGreaterThan(0);
    expect(report.trustd.INVALID_ARGUMENT).toBeGreaterThan(0);
    expect(report.trustd.UNAUTHENTICATED).toBeGreaterThan(0);
    await target.stillServing();
    expect(target.node.child.exitCode).toBe(null);
    expect(emergencies(target.node)).toEqual([]);
  }, 180_000);
});
