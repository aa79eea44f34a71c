import { describe, expect, it } from 'vitest';
import { controllerErrorCode } from '../../../../src/cosi/controller/errors.js';
import {
  type TransformSettings,
  transformController,
} from '../../../../src/cosi/controller/generic/transform.js';
import { IntResource, StrResource } from '../../../../src/cosi/testing/resources.js';

type Settings = TransformSettings<{ value: number }, { value: string }>;

const base: Settings = {
  name: 'T',
  input: IntResource,
  output: StrResource,
  map: (i) => i.metadata.id,
  transform: () => {},
};

const invalid = (s: Settings): string => {
  try {
    transformController(s);
  } catch (e) {
    expect(controllerErrorCode(e)).toBe('invalid-declaration');
    return (e as Error).message;
  }
  throw new Error('expected invalid settings');
};

describe('transformController settings', () => {
  it('rejects missing or conflicting functions at construction', () => {
    const { map: _m, transform: _t, ...bare } = base;
    const extraOutputs = [{ type: 'Others.test.cosi.dev', kind: 'exclusive' as const }];
    expect(invalid({ ...bare, transform: () => {} })).toBe('map is required');
    expect(invalid({ ...base, mapOptional: () => undefined })).toBe(
      'map and mapOptional are mutually exclusive',
    );
    expect(invalid({ ...bare, map: base.map! })).toBe('transform is required');
    expect(invalid({ ...base, extraOutputs })).toBe('transformExtraOutput is required');
    expect(invalid({ ...base, transformExtraOutput: () => {} })).toBe(
      'transform and transformExtraOutput are mutually exclusive',
    );
    expect(invalid({ ...base, inputFinalizers: true })).toBe(
      'finalizerRemoval is required when input finalizers are enabled',
    );
    expect(
      invalid({
        ...bare,
        map: base.map!,
        transformExtraOutput: () => {},
        extraOutputs,
        inputFinalizers: true,
      }),
    ).toBe('finalizerRemovalExtraOutput is required when input finalizers are enabled');
    expect(invalid({ ...base, finalizerRemoval: () => {}, finalizerRemovalExtraOutput: () => {} })).toBe(
      'finalizerRemoval and finalizerRemovalExtraOutput are mutually exclusive',
    );
    expect(
      invalid({ ...base, inputFinalizers: true, finalizerRemoval: () => {}, ignoreTearingDownInputs: true }),
    ).toBe('ignoreTearingDownInputs is mutually exclusive with inputFinalizers');
  });

  it('declares the input (strong with finalizers) and the output as a destroy-ready input', () => {
    const weak = transformController(base);
    expect(weak.inputs).toEqual([
      { namespace: 'test', type: IntResource.type, kind: 'weak' },
      { namespace: 'test', type: StrResource.type, kind: 'destroy-ready' },
    ]);
    expect(weak.outputs).toEqual([{ type: StrResource.type, kind: 'exclusive' }]);
    const strong = transformController({
      ...base,
      inputFinalizers: true,
      finalizerRemoval: () => {},
      outputKind: 'shared',
    });
    expect(strong.inputs[0]?.kind).toBe('strong');
    expect(strong.outputs).toEqual([{ type: StrResource.type, kind: 'shared' }]);
  });

  it('does not declare the output twice when it is the input kind itself', () => {
    const same = transformController<{ value: number }, { value: number }>({
      name: 'Same',
      input: IntResource,
      output: IntResource,
      inputNamespace: 'a',
      outputNamespace: 'a',
      map: (i) => `${i.metadata.id}-copy`,
      transform: () => {},
    });
    expect(same.inputs).toEqual([{ namespace: 'a', type: IntResource.type, kind: 'weak' }]);
  });
});
