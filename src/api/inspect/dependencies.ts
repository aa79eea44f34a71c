// InspectService.ControllerRuntimeDependencies: the controller runtime's graph with upstream's edge types.
import type {
  DependencyEdge,
  DependencyEdgeType,
  DependencyGraph,
} from '../../cosi/controller/dependency.js';
import { ApiError } from '../errors.js';
import { type Handler, unaryHandler } from '../handlers.js';

/** The inspect enum's names; queue-controller edges have none, and upstream refuses them too. */
const EDGE_TYPES: Readonly<Partial<Record<DependencyEdgeType, string>>> = {
  OutputExclusive: 'OUTPUT_EXCLUSIVE',
  OutputShared: 'OUTPUT_SHARED',
  InputStrong: 'INPUT_STRONG',
  InputWeak: 'INPUT_WEAK',
  InputDestroyReady: 'INPUT_DESTROY_READY',
};

export function edgeMessage(e: DependencyEdge) {
  const edgeType = EDGE_TYPES[e.edgeType];
  if (!edgeType)
    throw new ApiError(
      'internal',
      `ControllerRuntimeDependencies: unexpected edge type ${e.edgeType} (controller ${e.controllerName})`,
    );
  return {
    controller_name: e.controllerName,
    edge_type: edgeType,
    resource_namespace: e.resourceNamespace,
    resource_type: e.resourceType,
    resource_id: e.resourceId,
  };
}

export function dependenciesHandler(graph: () => DependencyGraph): Handler {
  return unaryHandler(async () => ({ messages: [{ edges: graph().edges.map(edgeMessage) }] }));
}
