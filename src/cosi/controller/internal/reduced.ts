// Reduced metadata: what the runtime keeps of a watch event (identity plus labels, phase, finalizers-empty).
import type { Metadata } from '../../resource/metadata.js';
import type { ReducedResourceMetadata } from '../qcontroller.js';

export const reduce = (md: Metadata): ReducedResourceMetadata => ({
  namespace: md.namespace,
  type: md.type,
  id: md.id,
  phase: md.phase,
  labels: md.labels.copy(),
  finalizersEmpty: md.finalizers.empty(),
});

/** isDestroyReady: tearing down with no finalizers left, the moment an owner may destroy. */
export const isDestroyReady = (md: ReducedResourceMetadata): boolean =>
  md.phase === 'tearingDown' && md.finalizersEmpty;

/** identity is the dedup key: namespace, type and id. */
export const identity = (p: { namespace: string; type: string; id: string }): string =>
  `${p.namespace}\0${p.type}\0${p.id}`;
