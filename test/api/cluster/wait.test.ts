import { describe, expect, it } from 'vitest';
import {
  type Assertion,
  type Condition,
  OK,
  pollingCondition,
  SKIP,
} from '../../../src/api/cluster/condition.js';
import { progressReporter } from '../../../src/api/cluster/reporter.js';
import { waitForConditions } from '../../../src/api/cluster/wait.js';

const cond =
  (description: string, assertion: Assertion, intervalMs = 20) =>
  (): Condition =>
    pollingCondition(description, assertion, intervalMs);

describe('waitForConditions with the progress reporter', () => {
  it('runs the checks in order and sends each state once, as `waiting for …` lines', async () => {
    const lines: string[] = [];
    let tries = 0;
    await waitForConditions(
      [
        cond('etcd to be healthy', async () => OK),
        cond(
          'kubelet to be healthy',
          async () =>
            ++tries < 3
              ? {
                  kind: 'fail',
                  reason: '1 error occurred:\n\t* 10.5.0.2: service is not healthy: kubelet\n\n',
                }
              : OK,
          // longer than a report's period, so the failing state is seen
          150,
        ),
        cond('kube-proxy to report ready', async () => SKIP),
      ],
      progressReporter(async (l) => void lines.push(l)),
      AbortSignal.timeout(5_000),
    );
    expect(lines).toEqual([
      'waiting for etcd to be healthy: ...',
      'waiting for etcd to be healthy: OK',
      'waiting for kubelet to be healthy: ...',
      // the multi-error's trailing blank line is trimmed away, as upstream's reporter trims
      'waiting for kubelet to be healthy: 1 error occurred:\n\t* 10.5.0.2: service is not healthy: kubelet',
      'waiting for kubelet to be healthy: OK',
      'waiting for kube-proxy to report ready: ...',
      'waiting for kube-proxy to report ready: SKIP',
    ]);
  });

  it('stops at the end of the wait on the check it waits for; the later ones never start', async () => {
    const lines: string[] = [];
    let later = false;
    const run = waitForConditions(
      [
        cond('etcd to be healthy', async () => OK),
        cond('kubelet to be healthy', async () => ({
          kind: 'fail',
          reason: 'expected a response with 1 node(s), got 0',
        })),
        cond('all nodes to finish boot sequence', async () => {
          later = true;
          return OK;
        }),
      ],
      progressReporter(async (l) => void lines.push(l)),
      AbortSignal.timeout(300),
    );
    await expect(run).rejects.toThrow();
    expect(later).toBe(false);
    expect(lines.at(-1)).toBe('waiting for kubelet to be healthy: expected a response with 1 node(s), got 0');
  });

  it('reports the last state of a check that settled while its first line was being sent', async () => {
    const lines: string[] = [];
    const slowSend = async (l: string) => {
      await new Promise((r) => setTimeout(r, 30));
      lines.push(l);
    };
    await waitForConditions(
      [cond('kubelet to be healthy', async () => OK)],
      progressReporter(slowSend),
      AbortSignal.timeout(5_000),
    );
    expect(lines).toEqual([
      'waiting for kubelet to be healthy: ...',
      'waiting for kubelet to be healthy: OK',
    ]);
  });
});
