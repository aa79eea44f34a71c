// Runs the vitest suite and ends with one plain summary line: "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'keel-test-'));
const out = join(dir, 'report.json');
const res = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
try {
  const report = JSON.parse(readFileSync(out, 'utf8'));
  passed = report.numPassedTests;
  failed =
    report.numFailedTests +
    (report.numTotalTestSuites > 0 && report.success === false && report.numFailedTests === 0 ? 1 : 0);
  printSlowest(report);
} catch {
  failed = 1;
}
rmSync(dir, { recursive: true, force: true });
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(res.status === 0 && failed === 0 && passed > 0 ? 0 : 1);

/** printSlowest lists the files that took longest, so a run's time budget can be read off its log. */
function printSlowest(report) {
  const files = report.testResults
    .map((r) => ({ s: (r.endTime - r.startTime) / 1000, name: r.name.slice(process.cwd().length + 1) }))
    .sort((a, b) => b.s - a.s);
  const total = files.reduce((sum, f) => sum + f.s, 0);
  console.log(`slowest test files (of ${files.length}, ${total.toFixed(0)} s in all):`);
  for (const f of files.slice(0, 15)) console.log(`${f.s.toFixed(1).padStart(8)} s  ${f.name}`);
}
