import { describe, expect, it } from 'vitest';
import { serviceHealth } from '../../../../src/api/cluster/checks/services.js';
import type { Gathered, ServiceFact } from '../../../../src/api/cluster/node-facts.js';

const running = (healthy: boolean): ServiceFact => ({
  events: [
    { state: 'Preparing', msg: 'Running pre state' },
    { state: 'Running', msg: 'Service started as goroutine' },
  ],
  healthy,
});
const answers = (...a: [string, ServiceFact | undefined][]): Gathered<ServiceFact | undefined> => ({
  answers: a.map(([node, value]) => ({ node, value })),
  failures: [],
});

describe('serviceHealth (etcd / kubelet to be healthy)', () => {
  it('holds when every expected node runs the service, healthy', () => {
    expect(
      serviceHealth('etcd', 2, answers(['10.5.0.3', running(true)], ['10.5.0.2', running(true)])),
    ).toBeUndefined();
  });

  it('counts the nodes that run it: none running the kubelet is upstream’s count message', () => {
    expect(serviceHealth('kubelet', 1, answers(['10.5.0.2', undefined]))).toBe(
      'expected a response with 1 node(s), got 0',
    );
  });

  it('names each node at fault, by node order, in a multi-error', () => {
    const waiting: ServiceFact = {
      events: [{ state: 'Waiting', msg: 'Waiting for service "cri" to be "up"' }],
      healthy: false,
    };
    expect(
      serviceHealth(
        'etcd',
        3,
        answers(
          ['10.5.0.4', { events: [], healthy: false }],
          ['10.5.0.3', running(false)],
          ['10.5.0.2', waiting],
        ),
      ),
    ).toBe(
      '3 errors occurred:\n' +
        '\t* 10.5.0.2: service "etcd" not in expected state "Running": current state [Waiting] Waiting for service "cri" to be "up"\n' +
        '\t* 10.5.0.3: service is not healthy: etcd\n' +
        '\t* 10.5.0.4: no events recorded yet for service "etcd"\n\n',
    );
  });

  it('fails on a node that did not answer, as the client’s node error', () => {
    expect(
      serviceHealth('etcd', 2, {
        answers: [{ node: '10.5.0.2', value: running(true) }],
        failures: ['10.5.0.3: rpc error: code = Unavailable desc = connection refused'],
      }),
    ).toBe('1 error occurred:\n\t* 10.5.0.3: rpc error: code = Unavailable desc = connection refused\n\n');
  });
});
