import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../src/machined/services/errors.js';
import {
  checkAcyclic,
  dependents,
  reverseDependents,
  startOrder,
} from '../../../src/machined/services/graph.js';

const deps = new Map<string, string[]>([
  ['containerd', []],
  ['apid', ['containerd']],
  ['cri', []],
  ['etcd', ['cri']],
  ['kubelet', ['cri']],
  ['trustd', ['containerd', 'apid']],
]);

describe('service dependency graph', () => {
  it('orders every service after its dependencies', () => {
    const order = startOrder(deps);
    for (const [id, on] of deps) for (const d of on) expect(order.indexOf(d)).toBeLessThan(order.indexOf(id));
    expect(order).toHaveLength(deps.size);
  });

  it('finds direct and transitive dependents', () => {
    expect(dependents(deps, 'cri').sort()).toEqual(['etcd', 'kubelet']);
    expect(reverseDependents(deps, 'containerd').sort()).toEqual(['apid', 'trustd']);
    expect(reverseDependents(deps, 'kubelet')).toEqual([]);
  });

  it('names the loop of a cycle', () => {
    const cyclic = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]);
    expect(() => checkAcyclic(cyclic)).toThrow(ServiceError);
    expect(() => checkAcyclic(cyclic)).toThrow('a → b → c → a');
  });

  it('ignores dependencies on services not loaded yet when ordering', () => {
    expect(startOrder(new Map([['x', ['later']]]))).toEqual(['x']);
  });
});
