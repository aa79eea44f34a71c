// EtcFileSpecs and EtcFileStatuses (files.talos.dev) as upstream defines them.
import { describe, expect, it } from 'vitest';
import { EtcFileSpec, EtcFileStatus, FILES_NAMESPACE, FILES_TYPES } from '../../../resources/files/index.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

describe('EtcFileSpec and EtcFileStatus', () => {
  it('have upstream types, namespace and aliases', () => {
    expect(FILES_NAMESPACE).toBe('files');
    expect(EtcFileSpec.definition).toMatchObject({
      type: 'EtcFileSpecs.files.talos.dev',
      defaultNamespace: 'files',
      aliases: ['etcfilespec', 'efs'],
    });
    expect(EtcFileStatus.definition).toMatchObject({
      type: 'EtcFileStatuses.files.talos.dev',
      defaultNamespace: 'files',
      aliases: ['etcfilestatus', 'efs'],
    });
    for (const t of FILES_TYPES) expect(defaultRegistry.lookup(t.type)).toBe(t);
  });

  it('round-trip text and binary contents; fields numbered as files.proto', () => {
    const s = {
      contents: new TextEncoder().encode('127.0.0.1 localhost\n'),
      mode: 0o644,
      selinuxLabel: 'system_u:object_r:etc_t:s0',
    };
    const r = EtcFileSpec.new('files', 'hosts', s);
    const back = decodeResource(encodeResource(r));
    expect(EtcFileSpec.is(back) && EtcFileSpec.codec.equal(back.spec, s)).toBe(true);
    expect(EtcFileSpec.codec.equal(unmarshalResourceYAML(marshalResourceYAML(r)).spec as typeof s, s)).toBe(
      true,
    );
    const b = encodeSpec(s, EtcFileSpec.codec.proto!);
    expect(b[0]).toBe(0x0a); // contents: field 1, bytes
    expect(Buffer.from(b.subarray(22, 25)).toString('hex')).toBe('10a403'); // mode: field 2 = 420
    expect(b[25]).toBe(0x1a); // selinux label: field 3
    expect(specYAML(r)).toBe(
      'contents: |\n    127.0.0.1 localhost\nmode: 420\nselinux_label: system_u:object_r:etc_t:s0\n',
    );

    const bin = { contents: Uint8Array.of(0xff, 0x00), mode: 0o600, selinuxLabel: '' };
    const rb = EtcFileSpec.new('files', 'bin', bin);
    expect(specYAML(rb)).toBe('contents:\n    - 255\n    - 0\nmode: 384\nselinux_label: ""\n');
    expect(
      EtcFileSpec.codec.equal(unmarshalResourceYAML(marshalResourceYAML(rb)).spec as typeof bin, bin),
    ).toBe(true);
    expect(EtcFileSpec.codec.equal(s, { ...s, contents: new Uint8Array(0) })).toBe(false);
  });

  it('status carries the spec version', () => {
    const r = EtcFileStatus.new('files', 'hosts', { specVersion: '3' });
    expect(specYAML(r)).toBe('specVersion: "3"\n');
    expect(Buffer.from(encodeSpec(r.spec, EtcFileStatus.codec.proto!)).toString('hex')).toBe('0a0133');
    const back = decodeResource(encodeResource(r));
    expect(back.spec).toEqual({ specVersion: '3' });
  });
});
