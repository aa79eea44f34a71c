// Loads the checked-in Talos machine API protos (plus the COSI ones) and exposes every service definition.
import { fileURLToPath } from 'node:url';
import type { MethodDefinition } from '@grpc/grpc-js';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';
import { defaultProtoDir as cosiProtoDir } from '../cosi/api/proto.js';

/** The API files, relative to the proto directory; COSI's come from their own room through the include path. */
export const API_PROTO_FILES = [
  'common/common.proto',
  'machine/machine.proto',
  'machine/image.proto',
  'machine/lifecycle.proto',
  'machine/debug.proto',
  'storage/storage.proto',
  'time/time.proto',
  'cluster/cluster.proto',
  'inspect/inspect.proto',
  'security/security.proto',
  'v1alpha1/state.proto',
  'v1alpha1/meta.proto',
] as const;

/**
 * The same conventions as src/cosi: snake_case keys as on the wire, 64-bit integers as decimal strings,
 * enums by name (unknown numbers stay numbers), absent fields absent so handlers can tell unset from zero.
 */
export const API_LOADER_OPTIONS: Readonly<Options> = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  oneofs: true,
});

/** Overrides the proto directory, for bundles that ship the .proto files elsewhere. */
export const API_PROTO_DIR_ENV = 'KEEL_API_PROTO_DIR';

/** The services apid serves, by full name. SecurityService is trustd's (src/api/trustd): loaded here, not served. */
export const API_SERVICES = [
  'machine.MachineService',
  'machine.ImageService',
  'machine.LifecycleService',
  'machine.DebugService',
  'storage.StorageService',
  'time.TimeService',
  'cluster.ClusterService',
  'inspect.InspectService',
  'cosi.resource.State',
] as const;
export type ApiServiceName = (typeof API_SERVICES)[number] | 'securityapi.SecurityService';

/** A loaded service: its methods by short name, with grpc-js codecs. */
export type ServiceMethods = Readonly<Record<string, MethodDefinition<object, object>>>;

export interface ApiProto {
  readonly protoDir: string;
  readonly includeDirs: readonly string[];
  readonly packageDefinition: PackageDefinition;
  /** service full name → methods */
  readonly services: ReadonlyMap<ApiServiceName, ServiceMethods>;
}

export interface LoadApiProtoOptions {
  /** directory holding common/, machine/, … and vendor/; default $KEEL_API_PROTO_DIR or `proto/` beside this module */
  protoDir?: string;
  /** directory holding the COSI `v1alpha1/*.proto`; default: src/cosi's own resolution */
  cosiProtoDir?: string;
}

/** defaultApiProtoDir resolves the proto directory from the environment or this module's location. */
export function defaultApiProtoDir(): string {
  const fromEnv = process.env[API_PROTO_DIR_ENV];
  return fromEnv ? fromEnv : fileURLToPath(new URL('./proto/', import.meta.url));
}

/** ApiProtoLoadError names the directories searched, the usual cause when a bundle lacks the files. */
export class ApiProtoLoadError extends Error {
  constructor(
    readonly includeDirs: readonly string[],
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`loading machine API protos from ${includeDirs.join(', ')}: ${why}`, { cause });
    this.name = 'ApiProtoLoadError';
  }
}

const loaded = new Map<string, ApiProto>();

/** loadApiProto parses the protos once per directory pair; google well-known types come with proto-loader. */
export function loadApiProto(opts: LoadApiProtoOptions = {}): ApiProto {
  const protoDir = opts.protoDir ?? defaultApiProtoDir();
  const cosiDir = opts.cosiProtoDir ?? cosiProtoDir();
  const key = `${protoDir}\0${cosiDir}`;
  const cached = loaded.get(key);
  if (cached) return cached;
  // The include order mirrors upstream's: api/, api/vendor (google/rpc), the COSI spec's proto/.
  const includeDirs = [protoDir, `${protoDir.replace(/\/$/, '')}/vendor`, cosiDir];
  let packageDefinition: PackageDefinition;
  try {
    packageDefinition = loadSync([...API_PROTO_FILES], { ...API_LOADER_OPTIONS, includeDirs });
  } catch (cause) {
    throw new ApiProtoLoadError(includeDirs, cause);
  }
  const services = new Map<ApiServiceName, ServiceMethods>();
  for (const name of [...API_SERVICES, 'securityapi.SecurityService'] as const) {
    const svc = packageDefinition[name];
    if (!svc || 'format' in svc || 'type' in svc)
      throw new ApiProtoLoadError(includeDirs, `${name} is missing`);
    services.set(name, svc as unknown as ServiceMethods);
  }
  const proto: ApiProto = { protoDir, includeDirs, packageDefinition, services };
  loaded.set(key, proto);
  return proto;
}

/** serviceOf returns a loaded service or throws naming it. */
export function serviceOf(proto: ApiProto, name: ApiServiceName): ServiceMethods {
  const svc = proto.services.get(name);
  if (!svc) throw new ApiProtoLoadError(proto.includeDirs, `${name} is missing`);
  return svc;
}
