// The routing of reaped statuses to the starters of posix_spawn'd children, as pure bookkeeping; the
// real path (koffi, the kernel, the reaper) is test/machined/services/spawn-without-fork.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import {
  attachReaper,
  awaitedCount,
  beginStart,
  type RoutedExit,
  reaperAttached,
  routeExit,
} from '../../src/machined/spawned-exits.js';
import type { ExitStatus } from '../../src/sys/wait.js';

const code = (n: number): ExitStatus => ({ kind: 'exited', code: n });
const told: RoutedExit[][] = [];
let detach = attachReaper((o) => told.push(o));
afterEach(() => {
  told.length = 0;
  detach();
  detach = attachReaper((o) => told.push(o));
});

describe('spawned exits', () => {
  it('hands a registered child its status, and leaves a stranger to the orphan listeners', () => {
    const got: ExitStatus[] = [];
    beginStart()({ pid: 100, onExit: (s) => got.push(s) });
    expect(routeExit(100, code(3))).toBe(true);
    expect(got).toEqual([code(3)]);
    expect(routeExit(100, code(0))).toBe(false); // once only
    expect(routeExit(101, code(0))).toBe(false);
    expect(awaitedCount()).toBe(0);
  });

  it('keeps a status reaped before its start completed, and delivers it then', () => {
    const end = beginStart();
    expect(routeExit(200, code(7))).toBe(true); // nobody knows pid 200 yet
    const got: ExitStatus[] = [];
    end({ pid: 200, onExit: (s) => got.push(s) });
    expect(got).toEqual([code(7)]);
    expect(told).toEqual([]);
    expect(awaitedCount()).toBe(0);
  });

  it('gives what was kept back to the orphan listeners once no start is in flight', () => {
    const first = beginStart();
    const second = beginStart();
    expect(routeExit(300, code(1))).toBe(true);
    first({ pid: 301, onExit: () => {} });
    expect(told).toEqual([]); // another start could still claim 300
    second(); // failed: nothing will
    expect(told).toEqual([[{ pid: 300, status: code(1) }]]);
    expect(routeExit(301, code(0))).toBe(true);
  });

  it('knows whether a reaper would deliver anything', () => {
    expect(reaperAttached()).toBe(true);
    detach();
    expect(reaperAttached()).toBe(false);
  });
});
