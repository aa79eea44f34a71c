// NodeLabelSpecs.k8s.talos.dev (`k8s`, one per label key): a label Talos wants on the node's Kubernetes Node,
// from machine.nodeLabels and, on a control plane, `node-role.kubernetes.io/control-plane`. NodeApply
// puts them on the Node. Sensitive as upstream's (talosctl reads them with an admin role).
import type { ResourceOf } from '../../src/cosi/resource/typed.js';
import { defineKeyValueSpec, type KeyValueSpec } from './key-value-spec.js';

/** NodeLabelSpecSpec is one label, its key also the resource id. */
export type NodeLabelSpecSpec = KeyValueSpec;

export const NodeLabelSpec = defineKeyValueSpec('NodeLabelSpecs.k8s.talos.dev');
export type NodeLabelSpec = ResourceOf<typeof NodeLabelSpec>;
