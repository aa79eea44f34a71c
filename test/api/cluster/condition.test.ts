import { describe, expect, it } from 'vitest';
import { OK, pollingCondition, SKIP, type Verdict } from '../../../src/api/cluster/condition.js';
import { ApiError } from '../../../src/api/errors.js';

/** verdicts answers each try with the next verdict (the last one again once they run out). */
const verdicts = (...vs: Verdict[]) => {
  let i = 0;
  return async () => vs[Math.min(i++, vs.length - 1)]!;
};
const fail = (reason: string): Verdict => ({ kind: 'fail', reason });

describe('pollingCondition', () => {
  it('reads `...` before its first verdict, then what the last try found, until it holds', async () => {
    const c = pollingCondition('etcd to be healthy', verdicts(fail('not yet'), OK), 10);
    expect(String(c)).toBe('etcd to be healthy: ...');
    await c.wait(AbortSignal.timeout(5_000));
    expect(String(c)).toBe('etcd to be healthy: OK');
  });

  it('ends on SKIP, and says so', async () => {
    const c = pollingCondition('kube-proxy to report ready', verdicts(SKIP), 10);
    await c.wait(AbortSignal.timeout(5_000));
    expect(String(c)).toBe('kube-proxy to report ready: SKIP');
  });

  it('words a rejected try as Go prints an API error, and keeps trying', async () => {
    let tries = 0;
    const c = pollingCondition(
      'apid to be ready',
      async () => {
        tries++;
        if (tries === 1) throw new ApiError('unavailable', 'connection refused');
        return OK;
      },
      10,
    );
    const waiting = c.wait(AbortSignal.timeout(5_000));
    await new Promise((r) => setTimeout(r, 1));
    expect(String(c)).toBe('apid to be ready: rpc error: code = Unavailable desc = connection refused');
    await waiting;
    expect(tries).toBe(2);
  });

  it('bounds each try by the interval: a try that hangs reads as a context deadline', async () => {
    let tries = 0;
    const c = pollingCondition(
      'all k8s nodes to report',
      () => {
        tries++;
        return new Promise<never>(() => {});
      },
      30,
    );
    await expect(c.wait(AbortSignal.timeout(200))).rejects.toThrow();
    expect(tries).toBeGreaterThan(2);
    expect(String(c)).toBe('all k8s nodes to report: context deadline exceeded');
  });

  it('rejects with the signal’s reason when the wait is over, keeping its last finding', async () => {
    const ac = new AbortController();
    const c = pollingCondition(
      'kubelet to be healthy',
      verdicts(fail('expected a response with 1 node(s), got 0')),
      20,
    );
    const waiting = c.wait(ac.signal);
    setTimeout(() => ac.abort(new Error('over')), 50);
    await expect(waiting).rejects.toThrow('over');
    expect(String(c)).toBe('kubelet to be healthy: expected a response with 1 node(s), got 0');
  });
});
