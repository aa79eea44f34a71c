// DependencyGraph: the controller ↔ resource edges the runtime exports for inspection (talosctl renders it).
import type { ID, Namespace, Type } from '../resource/kind.js';

export type DependencyEdgeType =
  | 'OutputExclusive'
  | 'OutputShared'
  | 'InputStrong'
  | 'InputWeak'
  | 'InputDestroyReady'
  | 'InputQPrimary'
  | 'InputQMapped'
  | 'InputQMappedDestroyReady';

/** Wire numbers of the edge types, in upstream's constant order. */
export const EDGE_TYPE_NUMBERS: Readonly<Record<DependencyEdgeType, number>> = {
  OutputExclusive: 0,
  OutputShared: 1,
  InputStrong: 2,
  InputWeak: 3,
  InputDestroyReady: 4,
  InputQPrimary: 5,
  InputQMapped: 6,
  InputQMappedDestroyReady: 7,
};

/** DependencyEdge links a controller to a resource type; outputs have no namespace or id. */
export interface DependencyEdge {
  readonly controllerName: string;
  readonly resourceNamespace: Namespace;
  readonly resourceType: Type;
  /** '' for edges covering every id */
  readonly resourceId: ID;
  readonly edgeType: DependencyEdgeType;
}

/** DependencyGraph lists outputs first (exclusive, then shared), then inputs, each sorted by controller. */
export interface DependencyGraph {
  readonly edges: readonly DependencyEdge[];
}
