// MachineStatuses.runtime.talos.dev: the machine's stage (booting, running, rebooting…) and whether it is ready.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';

export const RUNTIME_NAMESPACE = 'runtime';
export const MACHINE_STATUS_ID = 'machine';

/** MachineStage, in upstream's order: the numbers travel on the wire, the names in YAML. */
export const MACHINE_STAGES = [
  'unknown',
  'booting',
  'installing',
  'maintenance',
  'running',
  'rebooting',
  'shutting down',
  'resetting',
  'upgrading',
] as const;
export type MachineStage = (typeof MACHINE_STAGES)[number];

/** UnmetCondition is one reason the machine is not ready at its stage. */
export interface UnmetCondition {
  name: string;
  reason: string;
}

export interface MachineStatusStatus {
  ready: boolean;
  unmetConditions: UnmetCondition[];
}

/** MachineStatusSpec is the aggregated machine status. */
export interface MachineStatusSpec {
  stage: MachineStage;
  status: MachineStatusStatus;
}

/** stageNumber and stageOf convert between the enum's name and its wire number. */
export const stageNumber = (s: MachineStage): number => MACHINE_STAGES.indexOf(s);
export const stageOf = (v: unknown): MachineStage =>
  typeof v === 'number'
    ? (MACHINE_STAGES[v] ?? 'unknown')
    : (MACHINE_STAGES as readonly unknown[]).includes(v)
      ? (v as MachineStage)
      : 'unknown';

const conditionsOf = (v: unknown): UnmetCondition[] =>
  Array.isArray(v)
    ? v.map((c: Record<string, unknown>) => ({
        name: String(c?.name ?? ''),
        reason: String(c?.reason ?? ''),
      }))
    : [];

const statusOf = (v: unknown): MachineStatusStatus => {
  const o = (v ?? {}) as Record<string, unknown>;
  return { ready: Boolean(o.ready), unmetConditions: conditionsOf(o.unmetConditions) };
};

const copy = (s: MachineStatusSpec): MachineStatusSpec => ({
  stage: s.stage,
  status: { ready: s.status.ready, unmetConditions: s.status.unmetConditions.map((c) => ({ ...c })) },
});

export const MachineStatus = defineResource<MachineStatusSpec>({
  type: 'MachineStatuses.runtime.talos.dev',
  defaultNamespace: RUNTIME_NAMESPACE,
  printColumns: [
    { name: 'Stage', jsonPath: '{.stage}' },
    { name: 'Ready', jsonPath: '{.status.ready}' },
  ],
  empty: () => ({ stage: 'unknown', status: { ready: false, unmetConditions: [] } }),
  copy,
  equal: (a, b) =>
    a.stage === b.stage &&
    a.status.ready === b.status.ready &&
    a.status.unmetConditions.length === b.status.unmetConditions.length &&
    a.status.unmetConditions.every(
      (c, i) =>
        c.name === b.status.unmetConditions[i]?.name && c.reason === b.status.unmetConditions[i]?.reason,
    ),
  proto: {
    stage: { no: 1, kind: 'enum' },
    status: {
      no: 2,
      kind: 'message',
      schema: {
        ready: { no: 1, kind: 'bool' },
        unmetConditions: {
          no: 2,
          kind: 'message',
          repeated: true,
          schema: { name: { no: 1, kind: 'string' }, reason: { no: 2, kind: 'string' } },
        },
      },
    },
  },
  toProto: (s) => ({ stage: stageNumber(s.stage), status: copy(s).status }),
  fromProto: (v) => ({ stage: stageOf(v.stage ?? 0), status: statusOf(v.status) }),
  fromYAML: (v) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return { stage: stageOf(o.stage), status: statusOf(o.status) };
  },
});
export type MachineStatus = ResourceOf<typeof MachineStatus>;
