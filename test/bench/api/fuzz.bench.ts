// The API fuzz (issue 33) at length: the campaign `make test` runs for seed 1 and 45 s, here for a seed of
// its own (KEEL_FUZZ_SEED, else the clock's, printed to replay) and several minutes, against one container
// node. Any failing case is printed with its seed and number; the node must stay up throughout.
import { fuzz } from '../../api/fuzz/campaign.js';
import { emergencies, fuzzNode } from '../../api/fuzz/node.js';
import { cleanup } from '../../machined/node/harness.js';
import { figure, group } from '../harness.js';

const seed = Number(process.env.KEEL_FUZZ_SEED ?? Date.now() % 1_000_000);
const minutes = Number(process.env.KEEL_FUZZ_MINUTES ?? 3);

await group(
  `API fuzz, seed ${seed}, ${minutes} min (targets: no failing case, no crash, no uncaught error)`,
  async () => {
    const target = await fuzzNode();
    try {
      const report = await fuzz(target, {
        seed,
        cases: 1_000_000,
        budgetMs: minutes * 60_000,
        concurrency: 16,
      });
      for (const f of report.failures.slice(0, 20)) console.log(`  failed: ${f}`);
      console.log(`  outcomes: ${JSON.stringify(report.outcomes)}; trustd: ${JSON.stringify(report.trustd)}`);
      let up = 1;
      await target.stillServing().catch(() => {
        up = 0;
      });
      figure('cases', report.cases, 'cases');
      figure('cases per second', (report.cases * 1000) / report.ms, 'cases/s');
      figure('cases that ended wrong', report.failures.length, 'cases', { op: '<=', value: 0 });
      figure('node answering after the campaign', up, 'yes', { op: '>=', value: 1 });
      figure('uncaught errors in the node’s log', emergencies(target.node).length, 'lines', {
        op: '<=',
        value: 0,
      });
    } finally {
      await cleanup();
    }
  },
);
