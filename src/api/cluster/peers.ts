// How this node reaches the other nodes' APIs for a health check: a forwarder made from the API identity
// the secrets controllers keep (ApiCertificates), whose client certificate a control plane holds to
// forward calls. Without one, the other nodes are reported as out of reach, never assumed healthy.
import { API, API_ID, type APICertsSpec } from '../../../resources/secrets/api.js';
import { SECRETS_NAMESPACE } from '../../../resources/secrets/namespace.js';
import type { TypedResource } from '../../cosi/resource/typed.js';
import { isNotFound } from '../../cosi/state/errors.js';
import { ApiError } from '../errors.js';
import { type Forwarder, nodeForwarder } from '../routing/forwarder.js';
import type { StateReader } from './local-node.js';
import type { NodeFacts } from './node-facts.js';
import { type PeerCaller, peerCaller } from './remote-node.js';

/** Peers is how one health check calls the other nodes; closed when it ends. */
export interface Peers {
  readonly caller: PeerCaller;
  close(): void;
}

/**
 * PeersFactory opens Peers for one health check: calls on behalf of a caller with these roles, marked as
 * proxied from `self`; undefined when this node cannot call other nodes.
 */
export type PeersFactory = (
  opts: { readonly roles: ReadonlySet<string>; readonly self: string },
  signal: AbortSignal,
) => Promise<Peers | undefined>;

/** forwardedPeers calls through a forwarder with the node's API client certificate (peerForwarder). */
export const forwardedPeers =
  (state: StateReader): PeersFactory =>
  async (opts, signal) => {
    const forwarder = await peerForwarder(state, signal);
    if (!forwarder) return undefined;
    return { caller: peerCaller(forwarder, opts), close: () => forwarder.close() };
  };

/** peerForwarder is a forwarder with the node's API client certificate, or undefined when it has none. */
export async function peerForwarder(state: StateReader, signal: AbortSignal): Promise<Forwarder | undefined> {
  let spec: APICertsSpec;
  try {
    spec = (
      (await state.get(API.pointer(API_ID, SECRETS_NAMESPACE), { signal })) as TypedResource<APICertsSpec>
    ).spec;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
  if (!spec.client || spec.acceptedCAs.length === 0) return undefined;
  return nodeForwarder({
    ca: spec.acceptedCAs.map((c) => c.crt).join('\n'),
    client: spec.client,
  });
}

/** unreachableNode answers every read with why this node cannot ask that one. */
export function unreachableNode(node: string): NodeFacts {
  const refuse = async (): Promise<never> => {
    throw new ApiError(
      'unavailable',
      `this node has no API client certificate to reach ${node} with: only the node the health check runs on can be checked`,
    );
  };
  return {
    node,
    service: refuse,
    etcdMembers: refuse,
    platform: refuse,
    memTotalKiB: refuse,
    ephemeral: refuse,
    diagnostics: refuse,
    machineStage: refuse,
    staticPods: refuse,
  };
}
