// prefault.so, built by scripts/init.sh, preloaded into a real glibc process: which ranges a writable
// mprotect leaves populated, that mprotect's own result and errno come through, and that the preload
// leaves the environment. The same probe without it shows what the kernel does alone.
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

const report = (env: NodeJS.ProcessEnv) =>
  new Map(
    execFileSync(probe, { env, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]),
  );

describe('prefault.so', () => {
  it('populates writable ranges of V8 page sizes as mprotect makes them writable', () => {
    const r = report({ LD_PRELOAD: prefault });
    expect(r.get('rw-256k')).toBe('64/64');
    expect(r.get('rwx-240k')).toBe('60/60');
  });

  it('leaves read-only ranges, small ranges and thread-stack sizes to fault as usual', () => {
    const r = report({ LD_PRELOAD: prefault });
    expect(r.get('r-256k')).toBe('0/64');
    expect(r.get('rw-32k')).toBe('0/8');
    expect(r.get('rw-8m')).toBe('0/2048');
  });

  it("passes mprotect's failure through and drops LD_PRELOAD from the environment", () => {
    const r = report({ LD_PRELOAD: prefault });
    expect(r.get('unaligned')).toBe('-1 EINVAL');
    expect(r.get('LD_PRELOAD')).toBe('(unset)');
  });

  it('is what populates: without it the kernel maps nothing until a page is touched', () => {
    const r = report({});
    expect(r.get('rw-256k')).toBe('0/64');
    expect(r.get('rwx-240k')).toBe('0/60');
    expect(r.get('LD_PRELOAD')).toBe('(unset)');
  });

  it('builds the same bytes again', () => {
    const again = buildInit(join(work!.path, 'bin-again')).prefault;
    expect(execFileSync('cmp', [prefault, again]).length).toBe(0);
  });
});
