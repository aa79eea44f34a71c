import { describe, expect, it } from 'vitest';
import type { Input } from '../../../../src/cosi/controller/controller.js';
import { qJobs, wakes } from '../../../../src/cosi/controller/internal/routing.js';
import type { ReducedResourceMetadata } from '../../../../src/cosi/controller/qcontroller.js';
import { Labels } from '../../../../src/cosi/resource/labels.js';

const md = (
  id: string,
  phase: 'running' | 'tearingDown' = 'running',
  finalizersEmpty = true,
): ReducedResourceMetadata => ({
  namespace: 'ns',
  type: 'T',
  id,
  phase,
  labels: new Labels(),
  finalizersEmpty,
});
const inp = (kind: Input['kind'], id?: string): Input => ({
  namespace: 'ns',
  type: 'T',
  kind,
  ...(id ? { id } : {}),
});

describe('wakes', () => {
  it('wakes for any change of a weak or strong input, narrowed by id', () => {
    expect(wakes([inp('weak')], md('x'))).toBe(true);
    expect(wakes([inp('strong', 'x')], md('x'))).toBe(true);
    expect(wakes([inp('strong', 'x')], md('y'))).toBe(false);
    expect(wakes([{ namespace: 'other', type: 'T', kind: 'weak' }], md('x'))).toBe(false);
  });

  it('wakes a destroy-ready input only for tearing-down resources without finalizers', () => {
    expect(wakes([inp('destroy-ready')], md('x'))).toBe(false);
    expect(wakes([inp('destroy-ready')], md('x', 'tearingDown', false))).toBe(false);
    expect(wakes([inp('destroy-ready')], md('x', 'tearingDown', true))).toBe(true);
    // another input on the same kind still wakes for anything
    expect(wakes([inp('destroy-ready'), inp('weak', 'x')], md('x'))).toBe(true);
  });
});

describe('qJobs', () => {
  it('queues reconciles for primaries and map jobs for mapped inputs', () => {
    expect(qJobs([inp('q-primary')], md('x'))).toEqual(['reconcile']);
    expect(qJobs([inp('q-mapped')], md('x'))).toEqual(['map']);
    expect(qJobs([inp('q-mapped-destroy-ready')], md('x'))).toEqual([]);
    expect(qJobs([inp('q-mapped-destroy-ready')], md('x', 'tearingDown'))).toEqual(['map']);
    expect(qJobs([inp('q-primary'), inp('q-mapped', 'x')], md('x'))).toEqual(['reconcile', 'map']);
  });
});
