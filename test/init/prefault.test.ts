// prefault.so, built by scripts/init.sh, preloaded into a real glibc process as stage 1 preloads it:
// which ranges a writable mprotect leaves populated, the heap main starts with, that mprotect's own
// result and errno come through, and that the preload and its tunable leave the environment. The same
// probe without them shows what the kernel does alone.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInit, compileDynamic, tempDir } from './harness.js';

let work: ReturnType<typeof tempDir> | undefined;
let prefault = '';
let probe = '';

beforeAll(() => {
  work = tempDir('keel-prefault-');
  prefault = buildInit(join(work.path, 'bin')).prefault;
  probe = join(work.path, 'probe');
  compileDynamic('prefault-probe.c', probe);
});

afterAll(() => work?.remove());

/** the environment stage 1 gives machined when the root has prefault.so (src/init/stage1.c) */
const stage1Env = () => ({ LD_PRELOAD: prefault, GLIBC_TUNABLES: 'glibc.malloc.top_pad=4194304' });

const report = (env: NodeJS.ProcessEnv) =>
  new Map(
    execFileSync(probe, { env, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]),
  );

/** resident and total pages of a probe line "<resident>/<total>" */
const pages = (r: Map<string, string>, key: string) => {
  const [resident = Number.NaN, total = Number.NaN] = (r.get(key) ?? '').split('/').map(Number);
  return { resident, total };
};

describe('prefault.so', () => {
  it('populates writable ranges of V8 page sizes as mprotect makes them writable', () => {
    const r = report(stage1Env());
    expect(r.get('rw-256k')).toBe('64/64');
    expect(r.get('rwx-240k')).toBe('60/60');
  });

  it('leaves read-only ranges, small ranges and thread-stack sizes to fault as usual', () => {
    const r = report(stage1Env());
    expect(r.get('r-256k')).toBe('0/64');
    expect(r.get('rw-32k')).toBe('0/8');
    expect(r.get('rw-8m')).toBe('0/2048');
  });

  it('hands main a heap of 4 MiB and more, all of it populated', () => {
    const heap = pages(report(stage1Env()), 'heap');
    expect(heap.total).toBeGreaterThanOrEqual(1024);
    expect(heap.resident).toBe(heap.total);
  });

  it("passes mprotect's failure through and drops LD_PRELOAD and GLIBC_TUNABLES from the environment", () => {
    const r = report(stage1Env());
    expect(r.get('unaligned')).toBe('-1 EINVAL');
    expect(r.get('LD_PRELOAD')).toBe('(unset)');
    expect(r.get('GLIBC_TUNABLES')).toBe('(unset)');
  });

  it('is what populates: without it the kernel maps nothing until a page is touched', () => {
    const r = report({});
    expect(r.get('rw-256k')).toBe('0/64');
    expect(r.get('rwx-240k')).toBe('0/60');
    const heap = pages(r, 'heap');
    expect(heap.total).toBeLessThan(1024);
    expect(heap.resident).toBeLessThan(heap.total);
  });

  it('builds the same bytes again', () => {
    const again = buildInit(join(work!.path, 'bin-again')).prefault;
    expect(execFileSync('cmp', [prefault, again]).length).toBe(0);
  });
});
