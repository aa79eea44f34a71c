// keelctl's API client: talosconfig, credentials, the connection with node routing, and per-node replies.
// Commands reach the node only through this room.
export { type CallOptions, type Connection, connect, type Route } from './connection.js';
export { insecureTLS, mutualTLS } from './credentials.js';
export { API_PORT, endpointAddress } from './endpoint.js';
export {
  type EnvelopeMessage,
  type NodeMetadata,
  type NodeReply,
  nodeReply,
  splitReplies,
} from './envelope.js';
export {
  ClientError,
  type ClientErrorCode,
  fromRPC,
  goCodeName,
  isCancelled,
  joinErrors,
  nodeError,
  rpcText,
} from './errors.js';
export { type DecodedEvent, decodeEvent, MACHINE_STAGES, type WireEvent } from './event-payload.js';
export { type PerNode, streamEach, unaryEach } from './fan-out.js';
export {
  configFlags,
  globalFlags,
  insecureFlag,
  NO_NODES,
  openSession,
  type Session,
  withSession,
} from './session.js';
export {
  currentContext,
  readTalosconfig,
  readTalosconfigOrEmpty,
  TALOSCONFIG_ENV,
  talosconfigPath,
  writeTalosconfig,
} from './talosconfig.js';
export {
  BOOT_ID_PATH,
  type Goal,
  progressOf,
  reached,
  readBootId,
  type TrackOptions,
  trackNode,
} from './tracker.js';
