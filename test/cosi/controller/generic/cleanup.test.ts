import { describe, expect, it } from 'vitest';
import { input } from '../../../../src/cosi/controller/controller.js';
import { controllerErrorCode } from '../../../../src/cosi/controller/errors.js';
import {
  type CleanupHandler,
  cleanupController,
  combine,
  hasNoOutputs,
  removeOutputs,
} from '../../../../src/cosi/controller/generic/cleanup.js';
import { IntResource, SentenceResource, StrResource } from '../../../../src/cosi/testing/resources.js';

type H = CleanupHandler<{ value: number }>;
const all = () => ({});

describe('cleanup handlers', () => {
  it('hasNoOutputs watches the outputs weakly and writes nothing', () => {
    const h: H = hasNoOutputs(StrResource, all, { namespace: 'x' });
    expect(h.inputs).toEqual([{ namespace: 'x', type: StrResource.type, kind: 'weak' }]);
    expect(h.outputs).toEqual([]);
  });

  it('removeOutputs waits for destroy-ready outputs and shares the output type', () => {
    const h: H = removeOutputs(StrResource, all, { namespace: 'x', extraOwners: ['Other'] });
    expect(h.inputs).toEqual([{ namespace: 'x', type: StrResource.type, kind: 'destroy-ready' }]);
    expect(h.outputs).toEqual([{ type: StrResource.type, kind: 'shared' }]);
  });

  it('combine merges inputs and outputs and rejects one kind declared two ways', () => {
    const h = combine<{ value: number }>(
      removeOutputs(StrResource, all),
      removeOutputs(StrResource, all),
      hasNoOutputs(SentenceResource, all),
    );
    expect(h.inputs.map((i) => i.type)).toEqual([StrResource.type, SentenceResource.type]);
    expect(h.outputs).toEqual([{ type: StrResource.type, kind: 'shared' }]);
    try {
      combine<{ value: number }>(removeOutputs(StrResource, all), hasNoOutputs(StrResource, all));
      throw new Error('expected a failure');
    } catch (e) {
      expect(controllerErrorCode(e)).toBe('invalid-declaration');
      expect((e as Error).message).toBe(
        `input "${StrResource.type}" has different kinds: "destroy-ready" and "weak"`,
      );
    }
    expect(() => combine()).toThrow('no handlers provided');
  });

  it('the controller holds a strong input on its type plus the handler inputs', () => {
    const c = cleanupController({ name: 'C', input: IntResource, handler: hasNoOutputs(StrResource, all) });
    expect(c.inputs).toEqual([input(IntResource, { kind: 'strong' }), input(StrResource, { kind: 'weak' })]);
  });
});
