// The COSI State API over gRPC: the cosi.resource.State server, a CoreState client, and the proto loader.
// Wire-compatible with upstream cosi-project/runtime clients and servers.
export type { BackoffOptions } from './backoff.js';
export { type GrpcCoreState, type GrpcCoreStateOptions, grpcCoreState } from './client.js';
export type { WatchRetryInfo } from './client-watch.js';
export { RemoteCallError, RequestError } from './errors.js';
export {
  type CosiProto,
  defaultProtoDir,
  LOADER_OPTIONS,
  type LoadProtoOptions,
  loadCosiProto,
  PROTO_DIR_ENV,
  PROTO_FILES,
  ProtoLoadError,
  type StateServiceDefinition,
} from './proto.js';
export { addStateService, type StateServiceOptions } from './server.js';
export { ERROR_CLASS_KEY, fromStatusError, type StateMethod, statusFor, toStatusError } from './status.js';
