// NodeAnnotationSpecs.k8s.talos.dev (`k8s`, one per annotation key): an annotation Talos wants on the node's
// Kubernetes Node, from machine.nodeAnnotations. NodeApply puts them on the Node. Sensitive as upstream's.
import type { ResourceOf } from '../../src/cosi/resource/typed.js';
import { defineKeyValueSpec, type KeyValueSpec } from './key-value-spec.js';

/** NodeAnnotationSpecSpec is one annotation, its key also the resource id. */
export type NodeAnnotationSpecSpec = KeyValueSpec;

export const NodeAnnotationSpec = defineKeyValueSpec('NodeAnnotationSpecs.k8s.talos.dev');
export type NodeAnnotationSpec = ResourceOf<typeof NodeAnnotationSpec>;
