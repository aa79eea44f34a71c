// KernelRefusals.net.keel.dev: its definition and aliases (each naming it alone among every type machined
// serves), its round trips through proto_spec and yaml_spec, its field numbers, YAML and table columns.
import { describe, expect, it } from 'vitest';
import '../../../resources/config/index.js';
import '../../../resources/files/index.js';
import {
  KernelRefusal,
  type KernelRefusalSpec,
  kernelRefusalID,
  NETWORK_TYPES,
} from '../../../resources/network/index.js';
import '../../../resources/runtime/index.js';
import '../../../resources/secrets/index.js';
import '../../../resources/time/index.js';
import '../../../resources/v1alpha1/index.js';
import { resolveType } from '../../../src/cosi/resource/meta/resolve.js';
import { renderTable } from '../../../src/cosi/resource/output/table.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';
import { field } from './wire-fields.js';

const refusal = (): KernelRefusalSpec => ({
  specType: 'LinkSpecs.net.talos.dev',
  specID: 'lm0',
  errno: 'EINVAL',
  message: 'setMTU("lm0"): EINVAL (invalid argument)',
  attempts: 3,
  since: Date.UTC(2026, 11, 3, 14, 46, 37, 125),
  nextRetry: Date.UTC(2026, 11, 3, 14, 46, 38, 875),
});

describe('KernelRefusal', () => {
  it('is a network type of its own, registered for the API and the decoders', () => {
    expect(KernelRefusal.type).toBe('KernelRefusals.net.keel.dev');
    expect(KernelRefusal.defaultNamespace).toBe('network');
    expect(KernelRefusal.definition.displayType).toBe('KernelRefusal');
    expect(NETWORK_TYPES as readonly unknown[]).toContain(KernelRefusal);
    expect(defaultRegistry.lookup(KernelRefusal.type)).toBe(KernelRefusal);
    expect(kernelRefusalID('address', 'eth0/10.0.0.1/24')).toBe('address/eth0/10.0.0.1/24');
  });

  it('has aliases that name it alone among every registered type (no automatic `krs`)', () => {
    const all = defaultRegistry.types().map((t) => defaultRegistry.lookup(t)!.definition);
    expect(all.length).toBeGreaterThan(30);
    expect(KernelRefusal.definition.allAliases).not.toContain('krs');
    for (const alias of [...KernelRefusal.definition.allAliases, 'kernelrefusals.net.keel.dev'])
      expect(resolveType(all, alias).type, alias).toBe(KernelRefusal.type);
  });

  it('round-trips through proto_spec and yaml_spec, with its field numbers', () => {
    const s = refusal();
    const r = KernelRefusal.new('network', 'link/lm0', s);
    const back = decodeResource(encodeResource(r));
    expect(KernelRefusal.is(back)).toBe(true);
    expect(back.spec).toEqual(s);
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(s);
    const b = encodeSpec(s, KernelRefusal.codec.proto!);
    expect(Buffer.from(field(b, 1).value as Uint8Array).toString()).toBe('LinkSpecs.net.talos.dev');
    expect(Buffer.from(field(b, 3).value as Uint8Array).toString()).toBe('EINVAL');
    expect(field(b, 5).value).toBe(3n);
    expect(field(b, 6).wt).toBe(2); // a google.protobuf.Timestamp
  });

  it('prints its YAML with RFC 3339 times, and its errno, attempts and message as columns', () => {
    expect(specYAML(KernelRefusal.new('network', 'link/lm0', refusal()))).toBe(
      [
        'specType: LinkSpecs.net.talos.dev',
        'specID: lm0',
        'errno: EINVAL',
        `message: 'setMTU("lm0"): EINVAL (invalid argument)'`,
        'attempts: 3',
        'since: 2026-12-03T14:46:37.125Z',
        'nextRetry: 2026-12-03T14:46:38.875Z',
        '',
      ].join('\n'),
    );
    const out = renderTable(KernelRefusal.definition, [
      { node: '', resource: KernelRefusal.new('network', 'link/lm0', refusal()) },
    ]);
    const [header, row] = out.split('\n').map((l) => l.trim().split(/\s{3,}/));
    expect(header).toEqual(['NODE', 'NAMESPACE', 'TYPE', 'ID', 'VERSION', 'ERRNO', 'ATTEMPTS', 'MESSAGE']);
    expect(row?.slice(-3)).toEqual(['EINVAL', '3', 'setMTU("lm0"): EINVAL (invalid argument)']);
  });
});
