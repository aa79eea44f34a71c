// The legacy v1alpha1 document: version, debug, persist, machine, cluster.
import { bool, type StructSchema, str, struct } from '../schema.js';
import { type ClusterConfig, clusterSchema } from './cluster.js';
import { type MachineConfig, machineSchema } from './machine.js';

export interface V1Alpha1Config {
  version?: string;
  debug?: boolean;
  persist?: boolean;
  machine?: MachineConfig;
  cluster?: ClusterConfig;
}

export const v1alpha1Schema: StructSchema = struct({
  version: str,
  debug: bool,
  persist: bool,
  machine: machineSchema,
  cluster: clusterSchema,
});

/** Top-level keys that mark a document without `kind` as the legacy v1alpha1 config. */
export const v1alpha1Markers = ['version', 'machine', 'cluster', 'debug', 'persist'] as const;
