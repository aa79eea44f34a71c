import { describe, expect, it } from 'vitest';
import { v1alpha1Of } from '../../../src/config/container.js';
import { decode } from '../../../src/config/decoder/index.js';
import { applyJsonPatch, applyPatches, JsonPatchError, loadPatch } from '../../../src/config/patch/index.js';

const single = decode(
  'version: v1alpha1\nmachine:\n  type: worker\n  certSANs:\n    - a\n    - b\ncluster:\n  clusterName: x\n',
);

describe('RFC 6902 JSON patches (§1.7)', () => {
  it('is detected for a YAML list of operations and for JSON', () => {
    expect(loadPatch('- op: add\n  path: /machine/network\n  value: {}\n').type).toBe('json6902');
    expect(loadPatch('[{"op":"remove","path":"/machine/certSANs/0"}]').type).toBe('json6902');
    expect(loadPatch('{"machine":{"type":"worker"}}').type).toBe('strategic');
  });

  it('applies add, replace, remove, move, copy and test to a single-document config', () => {
    const ops = loadPatch(
      JSON.stringify([
        { op: 'test', path: '/machine/type', value: 'worker' },
        { op: 'add', path: '/machine/network', value: { hostname: 'w1' } },
        { op: 'add', path: '/machine/certSANs/-', value: 'c' },
        { op: 'remove', path: '/machine/certSANs/0' },
        { op: 'replace', path: '/cluster/clusterName', value: 'y' },
        { op: 'copy', from: '/cluster/clusterName', path: '/machine/nodeLabels' },
      ]),
    );
    expect(() => applyPatches(single, [ops])).toThrow(/expected a mapping/);
    const ok = loadPatch(
      '- op: add\n  path: /machine/network\n  value:\n    hostname: w1\n- op: add\n  path: /machine/certSANs/-\n  value: c\n- op: remove\n  path: /machine/certSANs/0\n- op: move\n  from: /cluster/clusterName\n  path: /machine/network/hostname\n',
    );
    const m = v1alpha1Of(applyPatches(single, [ok]))!;
    expect(m.machine!.certSANs).toEqual(['b', 'c']);
    expect(m.machine!.network).toEqual({ hostname: 'x' });
    expect(m.cluster!.clusterName).toBeUndefined();
  });

  it('fails a test operation without changing anything', () => {
    const p = loadPatch('[{"op":"test","path":"/machine/type","value":"controlplane"}]');
    expect(() => applyPatches(single, [p])).toThrow(/test failed/);
  });

  it('is refused on multi-document configs', () => {
    const multi = decode(
      'machine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n',
    );
    expect(() => applyPatches(multi, [loadPatch('[{"op":"remove","path":"/machine/type"}]')])).toThrow(
      'JSON6902 patches are not supported for multi-document machine configuration',
    );
  });

  it('handles escaped pointers and reports the failing operation', () => {
    const doc = { 'a/b': { '~c': 1 }, list: [1, 2] };
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '/a~1b/~0c', value: 2 }])).toEqual({
      'a/b': { '~c': 2 },
      list: [1, 2],
    });
    expect(() => applyJsonPatch(doc, [{ op: 'add', path: '/list/5', value: 1 }])).toThrow(JsonPatchError);
    expect(() => applyJsonPatch(doc, [{ op: 'remove', path: '/nope' }])).toThrow(
      'operation 0: remove /nope: path not found',
    );
    expect(doc.list).toEqual([1, 2]);
  });

  it('rejects malformed operations', () => {
    expect(() => loadPatch('[{"op":"jump","path":"/x"}]')).toThrow(/unknown op "jump"/);
    expect(() => loadPatch('[{"op":"add","path":"/x"}]')).toThrow(/value is required/);
  });
});
