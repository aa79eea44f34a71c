// Loads the checked-in cosi.resource protos (State service, resources, meta specs) at run time.
import { fileURLToPath } from 'node:url';
import type { MethodDefinition } from '@grpc/grpc-js';
import { loadSync, type Options, type PackageDefinition } from '@grpc/proto-loader';
import type {
  CreateRequest,
  CreateResponse,
  DestroyRequest,
  DestroyResponse,
  GetRequest,
  GetResponse,
  ListRequest,
  ListResponse,
  TeardownAndDestroyRequest,
  TeardownAndDestroyResponse,
  TeardownRequest,
  TeardownResponse,
  UpdateRequest,
  UpdateResponse,
  WatchRequest,
  WatchResponse,
} from './wire.js';

/** The files, relative to the proto directory; imports inside them resolve against it too. */
export const PROTO_FILES = [
  'v1alpha1/resource.proto',
  'v1alpha1/state.proto',
  'v1alpha1/meta.proto',
] as const;

/**
 * Message conventions every wire type in src/cosi relies on: snake_case keys, 64-bit integers as
 * decimal strings, enums as names, unset fields absent (so `optional` presence survives).
 */
export const LOADER_OPTIONS: Readonly<Options> = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  oneofs: true,
});

/** Overrides the proto directory, for bundles that ship the .proto files elsewhere. */
export const PROTO_DIR_ENV = 'COSI_PROTO_DIR';

/** The State service methods with their wire types. */
export interface StateServiceDefinition {
  readonly Get: MethodDefinition<GetRequest, GetResponse>;
  readonly List: MethodDefinition<ListRequest, ListResponse>;
  readonly Create: MethodDefinition<CreateRequest, CreateResponse>;
  readonly Update: MethodDefinition<UpdateRequest, UpdateResponse>;
  readonly Destroy: MethodDefinition<DestroyRequest, DestroyResponse>;
  readonly Watch: MethodDefinition<WatchRequest, WatchResponse>;
  readonly Teardown: MethodDefinition<TeardownRequest, TeardownResponse>;
  readonly TeardownAndDestroy: MethodDefinition<TeardownAndDestroyRequest, TeardownAndDestroyResponse>;
}

export interface CosiProto {
  readonly protoDir: string;
  readonly packageDefinition: PackageDefinition;
  /** `cosi.resource.State`, ready for `server.addService` and generic clients */
  readonly stateService: StateServiceDefinition;
}

export interface LoadProtoOptions {
  /** directory holding `v1alpha1/*.proto`; default: $COSI_PROTO_DIR, else `proto/` beside this module */
  protoDir?: string;
}

/** defaultProtoDir resolves the proto directory from the environment or this module's location. */
export function defaultProtoDir(): string {
  const fromEnv = process.env[PROTO_DIR_ENV];
  return fromEnv ? fromEnv : fileURLToPath(new URL('./proto/', import.meta.url));
}

const loaded = new Map<string, CosiProto>();

/** ProtoLoadError names the directory that was searched, the usual cause when a bundle lacks the files. */
export class ProtoLoadError extends Error {
  constructor(
    readonly protoDir: string,
    cause: unknown,
  ) {
    super(`loading cosi protos from ${protoDir}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'ProtoLoadError';
  }
}

/** loadCosiProto parses the protos once per directory and returns the State service definition. */
export function loadCosiProto(opts: LoadProtoOptions = {}): CosiProto {
  const protoDir = opts.protoDir ?? defaultProtoDir();
  const cached = loaded.get(protoDir);
  if (cached) return cached;
  let packageDefinition: PackageDefinition;
  try {
    packageDefinition = loadSync([...PROTO_FILES], { ...LOADER_OPTIONS, includeDirs: [protoDir] });
  } catch (cause) {
    throw new ProtoLoadError(protoDir, cause);
  }
  const service = packageDefinition['cosi.resource.State'];
  if (!service || !('Get' in service)) throw new ProtoLoadError(protoDir, 'cosi.resource.State is missing');
  const proto: CosiProto = {
    protoDir,
    packageDefinition,
    stateService: service as unknown as StateServiceDefinition,
  };
  loaded.set(protoDir, proto);
  return proto;
}
