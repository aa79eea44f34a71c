// TimeStatuses.v1alpha1.talos.dev as upstream defines it.
import { describe, expect, it } from 'vitest';
import { TIME_STATUS_ID, TIME_TYPES, TimeStatus } from '../../../resources/time/index.js';
import { renderTable } from '../../../src/cosi/resource/output/table.js';
import { encodeSpec } from '../../../src/cosi/resource/protobuf/index.js';
import { decodeResource, encodeResource } from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';
import { marshalResourceYAML, specYAML, unmarshalResourceYAML } from '../../../src/cosi/resource/yaml.js';

describe('TimeStatus', () => {
  it('has upstream type, namespace, id, aliases and columns', () => {
    expect(TimeStatus.definition).toMatchObject({
      type: 'TimeStatuses.v1alpha1.talos.dev',
      defaultNamespace: 'runtime',
      aliases: ['timestatus', 'ts'],
      printColumns: [{ name: 'Synced', jsonPath: '{.synced}' }],
    });
    expect(TIME_STATUS_ID).toBe('node');
    expect(TIME_TYPES).toContain(TimeStatus);
    expect(defaultRegistry.lookup(TimeStatus.type)).toBe(TimeStatus);
  });

  it('round-trips, numbers fields as time.proto and prints as upstream', () => {
    const s = { synced: true, epoch: 3, syncDisabled: true };
    const r = TimeStatus.new('runtime', 'node', s);
    const back = decodeResource(encodeResource(r));
    expect(TimeStatus.is(back) && back.spec).toEqual(s);
    expect(unmarshalResourceYAML(marshalResourceYAML(r)).spec).toEqual(s);
    expect(Buffer.from(encodeSpec(s, TimeStatus.codec.proto!)).toString('hex')).toBe('080110031801');
    expect(specYAML(r)).toBe('synced: true\nepoch: 3\nsyncDisabled: true\n');
    const row = renderTable(TimeStatus.definition, [{ node: '', resource: r }]).split('\n')[1]!;
    expect(
      row
        .trim()
        .split(/\s{3,}/)
        .at(-1),
    ).toBe('true');
  });
});
