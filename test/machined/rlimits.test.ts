import { describe, expect, it, onTestFinished } from 'vitest';
import { applyRlimits } from '../../src/machined/rlimits.js';
import { getrlimit, setrlimit } from '../../src/sys/rlimit.js';

describe('rlimits', () => {
  it('sets what it may, and raises the soft limit to the hard one when the hard limit cannot rise', () => {
    const before = getrlimit('NOFILE');
    onTestFinished(() => setrlimit('NOFILE', before));
    setrlimit('NOFILE', { soft: 256n, hard: before.hard });
    const [r] = applyRlimits({ NOFILE: { soft: before.hard + 1n, hard: before.hard + 1n } });
    const now = getrlimit('NOFILE');
    // with CAP_SYS_RESOURCE the wish is granted; without it the soft limit reaches the old hard one
    expect(r?.set).toEqual(now);
    expect(now.soft).toBe(now.hard);
    expect(now.hard >= before.hard).toBe(true);
  });
});
