// KernelParamSpecs, KernelParamDefaultSpecs and KernelParamStatuses.runtime.talos.dev as upstream defines them.
import { describe, expect, it } from 'vitest';
import {
  KernelParamDefaultSpec,
  KernelParamSpec,
  KernelParamStatus,
  RUNTIME_TYPES,
} from '../../../resources/runtime/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

describe('kernel parameter resources', () => {
  it('have upstream types, namespace, aliases and columns', () => {
    expect(KernelParamSpec.definition).toMatchObject({
      type: 'KernelParamSpecs.runtime.talos.dev',
      defaultNamespace: 'runtime',
      printColumns: [],
    });
    expect(KernelParamDefaultSpec.definition).toMatchObject({
      type: 'KernelParamDefaultSpecs.runtime.talos.dev',
      defaultNamespace: 'runtime',
    });
    expect(KernelParamStatus.definition).toMatchObject({
      type: 'KernelParamStatuses.runtime.talos.dev',
      defaultNamespace: 'runtime',
      aliases: expect.arrayContaining(['sysctls', 'kernelparameters', 'kernelparams']),
      printColumns: [
        { name: 'Current', jsonPath: '{.current}' },
        { name: 'Default', jsonPath: '{.default}' },
        { name: 'Unsupported', jsonPath: '{.unsupported}' },
      ],
    });
    for (const t of [KernelParamSpec, KernelParamDefaultSpec, KernelParamStatus]) {
      expect(RUNTIME_TYPES).toContain(t);
      expect(defaultRegistry.lookup(t.type)).toBe(t);
    }
  });

  it('round-trip a spec through protobuf (value = 1, ignoreErrors = 2) and YAML', () => {
    const r = KernelParamSpec.new('runtime', 'proc.sys.kernel.panic', { value: '10', ignoreErrors: true });
    expect(Buffer.from(encodeSpec(r.spec, KernelParamSpec.codec.proto!)).toString('hex')).toBe(
      '0a0231301001',
    );
    expect(specYAML(r)).toBe('value: "10"\nignoreErrors: true\n');
    const back = decodeResource(encodeResource(r));
    expect(KernelParamSpec.is(back) && back.spec).toEqual({ value: '10', ignoreErrors: true });
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(r.spec);
  });

  it('round-trip a status through protobuf (current 1, default 2, unsupported 3) and YAML', () => {
    const spec = { current: '1', default: '0', unsupported: false };
    const r = KernelParamStatus.new('runtime', 'proc.sys.net.ipv4.ip_forward', spec);
    expect(Buffer.from(encodeSpec(r.spec, KernelParamStatus.codec.proto!)).toString('hex')).toBe(
      '0a0131120130',
    );
    expect(specYAML(r)).toBe('current: "1"\ndefault: "0"\nunsupported: false\n');
    const back = decodeResource(encodeResource(r));
    expect(KernelParamStatus.is(back) && back.spec).toEqual(spec);
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(spec);
  });
});
