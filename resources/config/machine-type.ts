// MachineTypes.config.talos.dev: the node's role (init, controlplane, worker, unknown) from the active config.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { CONFIG_NAMESPACE } from './machine-config.js';

/** MachineRole is the node's role, as src/config's accessors name it. */
export type MachineRole = 'init' | 'controlplane' | 'worker' | 'unknown';
export const MACHINE_TYPE_ID = 'machine-type';

/** MachineTypeSpec holds the role; its YAML spec is the bare role string, as upstream prints it. */
export interface MachineTypeSpec {
  type: MachineRole;
}

/** Upstream's machine.Type enum values, as they travel in MachineTypeSpec.machine_type. */
const ROLE_NUMBERS: Record<MachineRole, number> = { unknown: 0, init: 1, controlplane: 2, worker: 3 };
const ROLES = Object.keys(ROLE_NUMBERS) as MachineRole[];
const roleOf = (v: unknown): MachineRole =>
  typeof v === 'string' && (ROLES as string[]).includes(v)
    ? (v as MachineRole)
    : (ROLES.find((r) => ROLE_NUMBERS[r] === v) ?? 'unknown');

export const MachineType = defineResource<MachineTypeSpec>({
  type: 'MachineTypes.config.talos.dev',
  defaultNamespace: CONFIG_NAMESPACE,
  printColumns: [{ name: 'Type', jsonPath: '{@}' }],
  empty: () => ({ type: 'unknown' }),
  copy: (s) => ({ type: s.type }),
  equal: (a, b) => a.type === b.type,
  proto: { machineType: { no: 1, kind: 'enum' } },
  toProto: (s) => ({ machineType: ROLE_NUMBERS[s.type] }),
  fromProto: (v) => ({ type: roleOf(v.machineType ?? 0) }),
  toYAML: (s) => s.type,
  fromYAML: (v) => ({ type: roleOf(v) }),
});
export type MachineType = ResourceOf<typeof MachineType>;

/** isControlPlane: init and controlplane nodes run etcd and the Kubernetes control plane. */
export const isControlPlane = (role: MachineRole): boolean => role === 'init' || role === 'controlplane';
