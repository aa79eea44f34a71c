// Node routing: the `nodes`/`node` metadata, the per-node reply envelope, and byte-level forwarding to
// other nodes with this node's own client certificate.
export { NodeError, stampStreamed, stampUnary, streamFailure, unaryFailure } from './envelope.js';
export {
  API_PORT,
  type Forwarder,
  type ForwarderOptions,
  type ForwardOptions,
  nodeForwarder,
  targetAddress,
} from './forwarder.js';
export {
  forwardMetadata,
  type LocalCall,
  type RouteContext,
  routeBidiStream,
  routeClientStream,
  routeServerStream,
  routeUnary,
  type Sink,
  type StreamedLocal,
} from './router.js';
export {
  ENVELOPE_SERVICES,
  NODE_KEY,
  NODES_KEY,
  PROXY_FROM_KEY,
  type Route,
  routeOf,
  supportsOneToMany,
} from './targets.js';
export {
  type EnvelopeMetadata,
  encodeMetadata,
  lengthDelimited,
  readFields,
  type WireField,
  withHostname,
  withHostnameEach,
} from './wire.js';
