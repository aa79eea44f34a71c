import { describe, expect, it } from 'vitest';
import { controllerErrorCode } from '../../../../src/cosi/controller/errors.js';
import {
  destroyOutput,
  isDestroyOutput,
  mapExtractLabelValue,
  mappedInput,
  mapperNone,
  mapperSameID,
  type QTransformSettings,
  qtransformController,
} from '../../../../src/cosi/controller/generic/qtransform.js';
import { silentLogger } from '../../../../src/cosi/controller/logger.js';
import type { QRuntime, ReducedResourceMetadata } from '../../../../src/cosi/controller/qcontroller.js';
import { labelEqual } from '../../../../src/cosi/resource/label-query.js';
import { Labels } from '../../../../src/cosi/resource/labels.js';
import { IntResource, SentenceResource, StrResource } from '../../../../src/cosi/testing/resources.js';

type Settings = QTransformSettings<{ value: number }, { value: string }>;

const base: Settings = {
  name: 'Q',
  input: IntResource,
  output: StrResource,
  map: (i) => i.metadata.id,
  unmap: (o) => o.metadata.id,
  transform: () => {},
};

const invalid = (s: Settings): string => {
  try {
    qtransformController(s);
  } catch (e) {
    expect(controllerErrorCode(e)).toBe('invalid-declaration');
    return (e as Error).message;
  }
  throw new Error('expected invalid settings');
};

const md = (id: string, labels: Record<string, string> = {}): ReducedResourceMetadata => ({
  namespace: 'aux',
  type: SentenceResource.type,
  id,
  phase: 'running',
  labels: new Labels(labels),
  finalizersEmpty: true,
});
// the stock mappers never touch the runtime
const rt = {} as QRuntime;
const ctx = { signal: new AbortController().signal, logger: silentLogger };
const primary = { namespace: 'ints', type: IntResource.type };

describe('qtransformController settings', () => {
  it('rejects missing or conflicting functions and mappers', () => {
    const { map: _m, unmap: _u, transform: _t, ...bare } = base;
    expect(invalid({ ...bare, unmap: base.unmap, transform: () => {} })).toBe('map is required');
    expect(invalid({ ...base, mapOptional: () => undefined })).toBe(
      'map and mapOptional are mutually exclusive',
    );
    expect(invalid({ ...bare, map: base.map!, unmap: base.unmap })).toBe('transform is required');
    expect(invalid({ ...base, transformExtraOutput: () => {} })).toBe(
      'transform and transformExtraOutput are mutually exclusive',
    );
    expect(invalid({ ...base, finalizerRemoval: () => {}, finalizerRemovalExtraOutput: () => {} })).toBe(
      'finalizerRemoval and finalizerRemovalExtraOutput are mutually exclusive',
    );
    const twice = mappedInput(SentenceResource, mapperNone(), { namespace: 'aux' });
    expect(invalid({ ...base, extraMappedInputs: [twice, twice] })).toBe(
      `duplicate mapper for ${SentenceResource.type}(aux)`,
    );
  });

  it('declares the input as primary, the output as mapped destroy-ready, and the extra inputs', () => {
    const q = qtransformController({
      ...base,
      extraMappedInputs: [
        mappedInput(SentenceResource, mapperNone(), { namespace: 'aux', destroyReady: true }),
      ],
      concurrency: 3,
    });
    expect(q.inputs.map((i) => `${i.kind} ${i.type}(${i.namespace})`)).toEqual([
      `q-primary ${IntResource.type}(test)`,
      `q-mapped-destroy-ready ${StrResource.type}(test)`,
      `q-mapped-destroy-ready ${SentenceResource.type}(aux)`,
    ]);
    expect(q.concurrency).toBe(3);
  });

  it('maps an output back to its input through unmap, without reading it', async () => {
    const q = qtransformController({ ...base, unmap: (o) => o.metadata.id.replace(/^out-/, '') });
    const out = { ...md('out-7'), namespace: 'test', type: StrResource.type };
    expect(await q.mapInput!(rt, out, ctx)).toEqual([IntResource.pointer('7', 'test')]);
  });
});

describe('stock mappers', () => {
  it('mapperSameID keeps the id', async () => {
    expect(await mapperSameID(primary)(rt, md('x'), ctx)).toEqual([{ ...primary, id: 'x' }]);
  });

  it('mapExtractLabelValue uses a label as the id, when every term matches', async () => {
    const m = mapExtractLabelValue(primary, 'owner', labelEqual('kind', 'a'));
    expect(await m(rt, md('x', { owner: 'o1', kind: 'a' }), ctx)).toEqual([{ ...primary, id: 'o1' }]);
    expect(await m(rt, md('x', { owner: 'o1', kind: 'b' }), ctx)).toEqual([]);
    expect(await m(rt, md('x', { kind: 'a' }), ctx)).toEqual([]);
  });

  it('mapperNone maps to nothing', async () => {
    expect(await mapperNone()(rt, md('x'), ctx)).toEqual([]);
  });

  it('destroyOutput is recognized through wrapping', () => {
    expect(isDestroyOutput(new Error('wrapped', { cause: destroyOutput() }))).toBe(true);
    expect(isDestroyOutput(new Error('plain'))).toBe(false);
  });
});
