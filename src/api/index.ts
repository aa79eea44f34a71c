// The machine API (apid): a talosctl-compatible gRPC server on :50000 with mutual TLS, roles, node routing,
// maintenance mode and the read-only COSI state; handlers for the individual RPCs plug in by method path.
export * from './auth/index.js';
export { type AnyCall, type CallScope, callScope, endStream, writer } from './call.js';
export { callerRoles } from './caller-roles.js';
export { accessPolicy } from './cosi-access.js';
export {
  ApiError,
  type ApiErrorCode,
  isPermissionDenied,
  isUnauthenticated,
  isUnimplemented,
  toServerError,
} from './errors.js';
export { type Admitted, type Gate, type GateOptions, newGate } from './gate.js';
export {
  type ApiMessage,
  bidiStreamHandler,
  type CallContext,
  clientStreamHandler,
  type Handler,
  type HandlerMap,
  handlerKind,
  localCall,
  notImplemented,
  type Send,
  serverStreamHandler,
  streamedLocalCall,
  unaryHandler,
} from './handlers.js';
export { BYTE_SERVICES, checkHandlers, mountServices, type ServicesMount } from './mount-services.js';
export { mountState, type StateMount } from './mount-state.js';
export {
  API_LOADER_OPTIONS,
  API_PROTO_DIR_ENV,
  API_PROTO_FILES,
  API_SERVICES,
  type ApiProto,
  ApiProtoLoadError,
  type ApiServiceName,
  defaultApiProtoDir,
  type LoadApiProtoOptions,
  loadApiProto,
  type ServiceMethods,
  serviceOf,
} from './proto.js';
export * from './routing/index.js';
export {
  type ApiServer,
  DEFAULT_API_ADDRESS,
  MAX_MESSAGE_BYTES,
  type NodeIdentity,
  type StartApiServerOptions,
  startApiServer,
} from './server.js';
export * from './tls/index.js';
export * from './trustd/index.js';
export {
  type BuildInfo,
  keelVersion,
  type PlatformInfo,
  type VersionHandlerOptions,
  type VersionInfo,
  versionHandler,
} from './version.js';
