// Where a call goes, from its gRPC metadata: here, one other node, or many nodes with a per-node envelope.
import type { Metadata } from '@grpc/grpc-js';
import { splitMetadataList } from '../auth/roles.js';
import { ApiError } from '../errors.js';

export const NODES_KEY = 'nodes';
export const NODE_KEY = 'node';
export const PROXY_FROM_KEY = 'proxyfrom';

/** The services whose replies carry the metadata envelope, so one call may fan out to many nodes. */
export const ENVELOPE_SERVICES: readonly string[] = [
  '/machine.MachineService/',
  '/cluster.ClusterService/',
  '/inspect.InspectService/',
  '/storage.StorageService/',
  '/time.TimeService/',
];

export const supportsOneToMany = (method: string): boolean =>
  ENVELOPE_SERVICES.some((prefix) => method.startsWith(prefix));

export type Route =
  | { readonly kind: 'local' }
  | { readonly kind: 'one-to-one'; readonly node: string }
  | { readonly kind: 'one-to-many'; readonly nodes: readonly string[] };

/**
 * routeOf reads `proxyfrom`, then `nodes`, then `node`, as apid does. Empty values count as absent, because
 * `--insecure` clients send `node: ""`.
 */
export function routeOf(method: string, md: Metadata): Route {
  if (md.get(PROXY_FROM_KEY).length > 0) return { kind: 'local' }; // already a proxied hop
  const nodes = splitMetadataList(md, NODES_KEY);
  if (nodes.length > 0) {
    if (!supportsOneToMany(method))
      throw new ApiError('invalid-argument', `one-2-many proxying is not supported for method ${method}`);
    return { kind: 'one-to-many', nodes };
  }
  const node = splitMetadataList(md, NODE_KEY);
  if (node.length > 1)
    throw new ApiError('invalid-argument', `node metadata must have exactly one value, got ${node.length}`);
  if (node.length === 1) return { kind: 'one-to-one', node: node[0]! };
  return { kind: 'local' };
}
