// StaticPodStatuses.kubernetes.talos.dev: upstream's type, namespace, alias and column; its YAML (the pod
// status, keys sorted as yaml.v3 sorts a Go map's); its protobuf (a google.protobuf.Struct as field 1)
// round trip; and the Ready column as talosctl prints it.
import { describe, expect, it } from 'vitest';
import { K8S_NAMESPACE, K8S_TYPES, StaticPodStatus } from '../../../resources/k8s/index.js';
import { renderTable } from '../../../src/cosi/resource/output/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

const status = {
  phase: 'Running',
  startTime: '2025-01-02T03:04:05Z',
  conditions: [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: 'False', lastProbeTime: null },
  ],
  containerStatuses: [
    {
      name: 'kube-scheduler',
      restartCount: 2,
      lastState: { terminated: { exitCode: 1, message: 'Error: unknown flag: --bogus\n' } },
    },
  ],
};

describe('StaticPodStatuses.kubernetes.talos.dev', () => {
  it('has upstream’s type, namespace, alias and column, and is registered', () => {
    expect(StaticPodStatus.type).toBe('StaticPodStatuses.kubernetes.talos.dev');
    expect(StaticPodStatus.defaultNamespace).toBe(K8S_NAMESPACE);
    expect(StaticPodStatus.definition.aliases).toContain('podstatus');
    expect(StaticPodStatus.definition.printColumns).toEqual([
      { name: 'Ready', jsonPath: '{.conditions[?(@.type=="Ready")].status}' },
    ]);
    expect(K8S_TYPES).toContain(StaticPodStatus);
    expect(defaultRegistry.lookup(StaticPodStatus.type)).toBe(StaticPodStatus);
  });

  it('writes the status as its YAML, keys sorted', () => {
    const r = StaticPodStatus.new(K8S_NAMESPACE, 'kube-system/kube-scheduler-cp-1', { podStatus: status });
    expect(toProtoResource(r).spec?.yaml_spec).toBe(
      [
        'conditions:',
        '    - status: "True"',
        '      type: PodScheduled',
        '    - lastProbeTime: null',
        '      status: "False"',
        '      type: Ready',
        'containerStatuses:',
        '    - lastState:',
        '        terminated:',
        '            exitCode: 1',
        '            message: |',
        '                Error: unknown flag: --bogus',
        '      name: kube-scheduler',
        '      restartCount: 2',
        'phase: Running',
        'startTime: "2025-01-02T03:04:05Z"',
        '',
      ].join('\n'),
    );
  });

  it('survives the wire as a Struct', () => {
    const r = StaticPodStatus.new(K8S_NAMESPACE, 'kube-system/kube-scheduler-cp-1', { podStatus: status });
    const proto = toProtoResource(r).spec?.proto_spec as Uint8Array;
    // field 1, length-delimited: the Struct
    expect(proto[0]).toBe(0x0a);
    const back = decodeResource(encodeResource(r));
    expect(StaticPodStatus.is(back) && back.spec).toEqual({ podStatus: status });
  });

  it('prints the Ready condition’s status in its column', () => {
    const r = (id: string, podStatus: Record<string, unknown>) =>
      ({ node: '10.5.0.2', resource: StaticPodStatus.new(K8S_NAMESPACE, id, { podStatus }) }) as const;
    const out = renderTable(StaticPodStatus.definition, [
      r('kube-system/a', status),
      r('kube-system/b', { conditions: [{ type: 'Ready', status: 'True' }] }),
      r('kube-system/c', {}),
    ]);
    expect(out.split('\n').map((l) => l.split(/\s+/).slice(3).join(' ').trimEnd())).toEqual([
      'ID VERSION READY',
      'kube-system/a undefined False',
      'kube-system/b undefined True',
      'kube-system/c undefined',
      '',
    ]);
  });
});
