import { describe, expect, it } from 'vitest';
import { defineController, input, output } from '../../../src/cosi/controller/controller.js';
import { controllerErrorCode } from '../../../src/cosi/controller/errors.js';
import { defineQController } from '../../../src/cosi/controller/qcontroller.js';
import { IntResource, StrResource } from '../../../src/cosi/testing/resources.js';

const invalid = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(controllerErrorCode(e)).toBe('invalid-declaration');
    return (e as Error).message;
  }
  throw new Error('expected an invalid declaration');
};

const run = async () => {};

describe('input and output', () => {
  it('build declarations from resource types', () => {
    expect(input(IntResource)).toEqual({ namespace: 'test', type: IntResource.type, kind: 'weak' });
    expect(input(IntResource, { namespace: 'n', id: 'x', kind: 'strong' })).toEqual({
      namespace: 'n',
      type: IntResource.type,
      id: 'x',
      kind: 'strong',
    });
    expect(input({ namespace: 'k', type: 'T' }, { kind: 'destroy-ready' })).toEqual({
      namespace: 'k',
      type: 'T',
      kind: 'destroy-ready',
    });
    expect(output(StrResource)).toEqual({ type: StrResource.type, kind: 'exclusive' });
    expect(output('T', 'shared')).toEqual({ type: 'T', kind: 'shared' });
  });
});

describe('defineController', () => {
  it('accepts a valid declaration and freezes it', () => {
    const c = defineController({
      name: 'C',
      inputs: [input(IntResource, { kind: 'strong' }), input(StrResource, { kind: 'destroy-ready' })],
      outputs: [output(StrResource)],
      run,
    });
    expect(c.flavor).toBe('controller');
    expect(Object.isFrozen(c.inputs)).toBe(true);
  });

  it('rejects duplicate inputs on one target, even with different kinds', () => {
    expect(
      invalid(() =>
        defineController({
          name: 'C',
          inputs: [input(IntResource), input(IntResource, { kind: 'strong' })],
          run,
        }),
      ),
    ).toBe(`duplicate controller input: "C" -> strong ${IntResource.type}(test/*)`);
  });

  it('rejects a type written twice', () => {
    expect(
      invalid(() =>
        defineController({
          name: 'C',
          outputs: [output(StrResource, 'shared'), output(StrResource, 'shared')],
          run,
        }),
      ),
    ).toBe(`duplicate shared controller output: "${StrResource.type}" -> "C"`);
    expect(
      invalid(() =>
        defineController({ name: 'C', outputs: [output(StrResource), output(StrResource, 'shared')], run }),
      ),
    ).toBe(`resource "${StrResource.type}" is already managed in exclusive mode by "C"`);
  });

  it('rejects queue input kinds and an empty name', () => {
    expect(
      invalid(() =>
        defineController({ name: 'C', inputs: [input(IntResource, { kind: 'q-primary' })], run }),
      ),
    ).toBe('invalid input kind "q-primary" for controller "C"');
    expect(invalid(() => defineController({ name: '', run }))).toBe('controller name is empty');
  });
});

describe('defineQController', () => {
  const reconcile = async () => {};

  it('rejects classic input kinds, bad concurrency and mapped inputs without mapInput', () => {
    expect(
      invalid(() =>
        defineQController({ name: 'Q', inputs: [input(IntResource, { kind: 'strong' })], reconcile }),
      ),
    ).toBe('invalid input kind "strong" for controller "Q"');
    expect(
      invalid(() =>
        defineQController({
          name: 'Q',
          inputs: [input(IntResource, { kind: 'q-primary' })],
          concurrency: 0,
          reconcile,
        }),
      ),
    ).toBe('invalid concurrency: 0');
    expect(
      invalid(() =>
        defineQController({
          name: 'Q',
          inputs: [input(IntResource, { kind: 'q-primary' }), input(StrResource, { kind: 'q-mapped' })],
          reconcile,
        }),
      ),
    ).toBe(`controller "Q" has mapped input ${StrResource.type}(test) but no mapInput`);
  });

  it('defaults to one worker', () => {
    const q = defineQController({
      name: 'Q',
      inputs: [input(IntResource, { kind: 'q-primary' })],
      reconcile,
    });
    expect(q.concurrency).toBe(1);
    expect(q.flavor).toBe('qcontroller');
  });
});
