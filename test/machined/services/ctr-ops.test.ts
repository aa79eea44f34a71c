// The sweep against a scripted ctr (a shell script standing in for the binary, its calls logged): a delete
// that fails because a ctr still attached to the container removed it first is not a failure, as long as
// nothing of the owner's is left; a container that stays is, after a bounded number of rounds, with
// ctr's own words. The real ctr and containerd take the same path in
// test/integration/machined/services/containerd-runner.test.ts (the sweep of what a killed machined left).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ctrOps } from '../../../src/machined/services/ctr-ops.js';
import { ProgramError } from '../../../src/machined/services/run-program.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'keel-ctr-ops-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * scriptedCtr writes a ctr that lists the containers in <dir>/containers and fails every task delete as
 * ctr does when the shim goes away under it; with `racing`, that delete empties the list first, as the
 * attached `ctr run --rm` deleting the same container would.
 */
function scriptedCtr(containers: string[], racing: boolean): string {
  const ctr = join(dir, 'ctr');
  writeFileSync(join(dir, 'containers'), containers.map((c) => `${c}\n`).join(''));
  writeFileSync(
    ctr,
    `#!/bin/sh
echo "$*" >> '${dir}/calls'
case "$*" in
  *"containers ls"*) cat '${dir}/containers' ;;
  *"tasks delete"*) ${racing ? `: > '${dir}/containers';` : ''} echo 'ctr: ttrpc: closed: unknown' >&2; exit 1 ;;
  *) exit 0 ;;
esac
`,
  );
  chmodSync(ctr, 0o755);
  return ctr;
}

const calls = (verb: string) =>
  existsSync(join(dir, 'calls'))
    ? readFileSync(join(dir, 'calls'), 'utf8')
        .split('\n')
        .filter((l) => l.includes(verb)).length
    : 0;

const target = (ctr: string) => ({ ctr, address: '/run/test.sock', namespace: 'system' });

describe('ctr sweep', () => {
  it('a delete that lost the race to an attached ctr is not a failure: nothing is left', async () => {
    const ops = ctrOps(target(scriptedCtr(['crashy-old'], true)));
    await expect(ops.sweep('service-crashy')).resolves.toBeUndefined();
    expect(calls('tasks delete')).toBe(1);
    expect(calls('containers ls')).toBe(2);
  });

  it('a container that stays fails the sweep after a bounded number of rounds, with ctr’s words', async () => {
    const ops = ctrOps(target(scriptedCtr(['stuck'], false)));
    const err = await ops.sweep('service-stuck').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ProgramError);
    expect((err as ProgramError).stderr).toContain('ttrpc: closed');
    expect(calls('tasks delete')).toBe(5);
  });

  it('nothing owned: one listing, no delete', async () => {
    const ops = ctrOps(target(scriptedCtr([], false)));
    await ops.sweep('service-none');
    expect(calls('containers ls')).toBe(1);
    expect(calls('delete')).toBe(0);
  });
});
