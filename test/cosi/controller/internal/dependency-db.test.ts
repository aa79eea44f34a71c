import { describe, expect, it } from 'vitest';
import { isDependencyConflict } from '../../../../src/cosi/controller/errors.js';
import { DependencyDatabase } from '../../../../src/cosi/controller/internal/dependency-db.js';

const fails = (f: () => void): Error => {
  try {
    f();
  } catch (e) {
    expect(isDependencyConflict(e)).toBe(true);
    return e as Error;
  }
  throw new Error('expected a dependency conflict');
};

describe('DependencyDatabase', () => {
  it('enforces exclusive and shared outputs with upstream messages', () => {
    const db = new DependencyDatabase();
    db.addOutput('ControllerBook', { type: 'Book', kind: 'exclusive' });
    db.addOutput('ControllerTable', { type: 'Table', kind: 'exclusive' });
    expect(fails(() => db.addOutput('ControllerTable', { type: 'Book', kind: 'exclusive' })).message).toBe(
      'resource "Book" is already managed in exclusive mode by "ControllerBook"',
    );
    expect(fails(() => db.addOutput('ControllerTable', { type: 'Book', kind: 'shared' })).message).toBe(
      'resource "Book" is already managed in exclusive mode by "ControllerBook"',
    );
    db.addOutput('ControllerBook', { type: 'Magazine', kind: 'shared' });
    db.addOutput('ControllerBook', { type: 'Journal', kind: 'shared' });
    db.addOutput('ControllerTable', { type: 'Magazine', kind: 'shared' });
    expect(fails(() => db.addOutput('ControllerFoo', { type: 'Journal', kind: 'exclusive' })).message).toBe(
      'resource "Journal" is already managed in shared mode by "ControllerBook"',
    );
    expect(fails(() => db.addOutput('ControllerBook', { type: 'Magazine', kind: 'shared' })).message).toBe(
      'duplicate shared controller output: "Magazine" -> "ControllerBook"',
    );
  });

  it('looks dependents up by kind and by id, and forgets deleted inputs', () => {
    const db = new DependencyDatabase();
    db.addInput('ConfigController', { namespace: 'user', type: 'Config', kind: 'weak' });
    db.addInput('ConfigController', { namespace: 'state', type: 'Machine', id: 'system', kind: 'strong' });
    // sorted by namespace, type, id, kind
    expect(db.inputs('ConfigController')).toEqual([
      { namespace: 'state', type: 'Machine', id: 'system', kind: 'strong' },
      { namespace: 'user', type: 'Config', kind: 'weak' },
    ]);
    expect(db.dependents('user', 'Config', 'config')).toEqual(['ConfigController']);
    expect(db.dependents('user', 'Spec', 'config')).toEqual([]);
    expect(db.dependents('state', 'Machine', 'node')).toEqual([]);
    expect(db.dependents('state', 'Machine', 'system')).toEqual(['ConfigController']);

    db.deleteInput('ConfigController', { namespace: 'state', type: 'Machine', id: 'system', kind: 'strong' });
    expect(db.dependents('state', 'Machine', 'system')).toEqual([]);
    expect(
      fails(() => db.deleteInput('ConfigController', { namespace: 'state', type: 'Machine', kind: 'weak' }))
        .message,
    ).toBe('controller "ConfigController" does not have input weak Machine(state/*)');
  });

  it('rejects a second input on the same target even with another kind', () => {
    const db = new DependencyDatabase();
    db.addInput('C', { namespace: 'ns', type: 'T', kind: 'weak' });
    expect(fails(() => db.addInput('C', { namespace: 'ns', type: 'T', kind: 'strong' })).message).toBe(
      'duplicate controller input: "C" -> strong T(ns/*)',
    );
    // an id-narrowed input is another target
    db.addInput('C', { namespace: 'ns', type: 'T', id: 'x', kind: 'destroy-ready' });
    expect(db.dependents('ns', 'T', 'x')).toEqual(['C', 'C']);
  });

  it('exports the graph: outputs by kind, then inputs, each by controller (as upstream TestExport)', () => {
    const db = new DependencyDatabase();
    db.addOutput('ControllerBook', { type: 'Book', kind: 'exclusive' });
    db.addOutput('ControllerTable', { type: 'Table', kind: 'exclusive' });
    db.addOutput('ControllerBook', { type: 'Magazine', kind: 'shared' });
    db.addOutput('ControllerBook', { type: 'Journal', kind: 'shared' });
    db.addOutput('ControllerTable', { type: 'Magazine', kind: 'shared' });
    db.addInput('ControllerBook', { namespace: 'user', type: 'Config', id: 'config', kind: 'weak' });
    db.addInput('ControllerTable', { namespace: 'default', type: 'Book', kind: 'strong' });
    db.addInput('QController', { namespace: 'a', type: 'Q', kind: 'q-mapped-destroy-ready' });
    const edge = (
      controllerName: string,
      edgeType: string,
      resourceType: string,
      resourceNamespace = '',
      resourceId = '',
    ) => ({
      controllerName,
      resourceNamespace,
      resourceType,
      resourceId,
      edgeType,
    });
    expect(db.export().edges).toEqual([
      edge('ControllerBook', 'OutputExclusive', 'Book'),
      edge('ControllerTable', 'OutputExclusive', 'Table'),
      edge('ControllerBook', 'OutputShared', 'Journal'),
      edge('ControllerBook', 'OutputShared', 'Magazine'),
      edge('ControllerTable', 'OutputShared', 'Magazine'),
      edge('ControllerBook', 'InputWeak', 'Config', 'user', 'config'),
      edge('ControllerTable', 'InputStrong', 'Book', 'default'),
      edge('QController', 'InputQMappedDestroyReady', 'Q', 'a'),
    ]);
  });

  it('removes a controller completely (rollback of a failed registration)', () => {
    const db = new DependencyDatabase();
    db.addOutput('A', { type: 'X', kind: 'exclusive' });
    db.addOutput('A', { type: 'Y', kind: 'shared' });
    db.addInput('A', { namespace: 'ns', type: 'Z', kind: 'weak' });
    db.removeController('A');
    expect(db.export().edges).toEqual([]);
    expect(db.dependents('ns', 'Z', 'id')).toEqual([]);
    db.addOutput('B', { type: 'X', kind: 'exclusive' });
  });
});
