import { describe, expect, it } from 'vitest';
import {
  BOOT_ID_ID,
  BootID,
  MACHINE_STAGES,
  MACHINE_STATUS_ID,
  MachineStatus,
  RUNTIME_NAMESPACE,
  RUNTIME_TYPES,
  stageNumber,
  stageOf,
} from '../../../resources/runtime/index.js';
import {
  decodeResource,
  encodeResource,
  toProtoResource,
} from '../../../src/cosi/resource/protobuf/resource.js';
import { defaultRegistry } from '../../../src/cosi/resource/registry.js';

describe('MachineStatuses.runtime.talos.dev', () => {
  it('has upstream type, namespace, id and columns', () => {
    expect(MachineStatus.type).toBe('MachineStatuses.runtime.talos.dev');
    expect(MachineStatus.defaultNamespace).toBe('runtime');
    expect(MACHINE_STATUS_ID).toBe('machine');
    expect(MachineStatus.definition.printColumns.map((c) => [c.name, c.jsonPath])).toEqual([
      ['Stage', '{.stage}'],
      ['Ready', '{.status.ready}'],
    ]);
    expect(RUNTIME_TYPES).toContain(MachineStatus);
    expect(defaultRegistry.lookup(MachineStatus.type)).toBe(MachineStatus);
  });

  it('numbers the stages as the MachineStatusEvent.MachineStage enum', () => {
    expect(MACHINE_STAGES.map((s) => [s, stageNumber(s)])).toEqual([
      ['unknown', 0],
      ['booting', 1],
      ['installing', 2],
      ['maintenance', 3],
      ['running', 4],
      ['rebooting', 5],
      ['shutting down', 6],
      ['resetting', 7],
      ['upgrading', 8],
    ]);
    expect(stageOf(6)).toBe('shutting down');
    expect(stageOf('running')).toBe('running');
    expect(stageOf(42)).toBe('unknown');
  });

  it('round-trips through protobuf and renders YAML with upstream field names', () => {
    const spec = {
      stage: 'running' as const,
      status: { ready: false, unmetConditions: [{ name: 'nodeReady', reason: 'node not ready' }] },
    };
    const r = MachineStatus.new(RUNTIME_NAMESPACE, MACHINE_STATUS_ID, spec);
    const back = decodeResource(encodeResource(r));
    expect(MachineStatus.is(back) && back.spec).toEqual(spec);
    expect(toProtoResource(r).spec?.yaml_spec).toBe(
      // yaml.v3's four-space indent, as talosctl prints it
      'stage: running\nstatus:\n    ready: false\n    unmetConditions:\n        - name: nodeReady\n          reason: node not ready\n',
    );
    expect(MachineStatus.codec.fromYAML?.({ stage: 'booting' })).toEqual({
      stage: 'booting',
      status: { ready: false, unmetConditions: [] },
    });
  });
});

describe('BootIDs.runtime.talos.dev', () => {
  it('carries the boot id under upstream names', () => {
    expect(BootID.type).toBe('BootIDs.runtime.talos.dev');
    expect(BOOT_ID_ID).toBe('boot-id');
    const r = BootID.new(RUNTIME_NAMESPACE, BOOT_ID_ID, { bootID: 'b1c2' });
    expect(toProtoResource(r).spec?.yaml_spec).toBe('bootID: b1c2\n');
    const back = decodeResource(encodeResource(r));
    expect(BootID.is(back) && back.spec).toEqual({ bootID: 'b1c2' });
  });
});
