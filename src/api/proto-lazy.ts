// proto-loader's package definition, made lazily from a prebuilt proto set (src/api/proto-index.ts).
// proto-loader builds every protobufjs type, the definition of every message, enum and service, and the file
// descriptors of every file, up front; a server needs only its services' method names to start. So the
// single executable builds a definition on first access, and a method's protobufjs types (with the types
// they need) when it first serializes or deserializes: under emulation building every type of the API at
// start cost about 0.4 s of a boot to the first answer. The shapes and values are proto-loader's: the
// tests compare both field by field and message by message.
// protobufjs' descriptor extension (toDescriptor on reflection objects) is loaded only when a descriptor is
// first asked for: loading it builds a second protobufjs root, descriptor.proto's, which under emulation
// cost more than a tenth of a second of every boot while only reflection reads descriptors.
import type { Options, PackageDefinition } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type descriptor from 'protobufjs/ext/descriptor/index.js';
import { lazyCodecs, type PrebuiltCodecs, usePrebuiltCodecs } from './proto-codecs.js';
import type { DefinitionEntry, NamespaceEntry, ProtoIndex } from './proto-index.js';

/** how proto-loader renders descriptor protos into plain objects */
const DESCRIPTOR_OPTIONS = {
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
  json: true,
};

type Cls = protobuf.Type;
/** DescriptorExtension loads (once) and returns protobufjs/ext/descriptor, which patches protobufjs when loaded */
export type DescriptorExtension = () => typeof descriptor;
type Descriptorish = { toDescriptor(syntax: string): protobuf.Message & { $type: protobuf.Type } };

/** lazy defines `key` on `target` as computed once, on first read, then a plain value. */
function lazy<T>(target: Record<string, unknown>, key: string, make: () => T): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = make();
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    },
  });
}

/** camelCase turns a method name into proto-loader's originalName (lodash's camelCase, for identifiers). */
export function camelCase(name: string): string {
  const words = name.match(/[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+/g) ?? [];
  return words
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
}

function serializer(cls: Cls) {
  return (arg: object): Buffer => {
    if (Array.isArray(arg))
      throw new Error(
        `Failed to serialize message: expected object with ${cls.name} structure, got array instead`,
      );
    return cls.encode(cls.fromObject(arg)).finish() as Buffer;
  };
}

function deserializer(cls: Cls, options: Options) {
  return (buf: Buffer): object => cls.toObject(cls.decode(buf), options as protobuf.IConversionOptions);
}

/** descriptorObject renders a resolved definition's descriptor (the extension must be loaded). */
function descriptorObject(obj: Descriptorish & protobuf.ReflectionObject): object {
  const d = obj.toDescriptor('proto3');
  return d.$type.toObject(d, DESCRIPTOR_OPTIONS);
}

/** methodOptions is proto-loader's view of a method's options (deprecated, idempotency_level …). */
function methodOptions(parsed: Record<string, unknown>[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> & { uninterpreted_option: unknown[] } = {
    deprecated: false,
    idempotency_level: 'IDEMPOTENCY_UNKNOWN',
    uninterpreted_option: [],
  };
  for (const item of parsed ?? [])
    for (const [key, value] of Object.entries(item)) {
      if (key === 'uninterpreted_option') out.uninterpreted_option.push(item.uninterpreted_option);
      else out[key] = value;
    }
  return out;
}

/** protobufjs' internal step of resolveAll that applies editions features (packed encoding …) */
type FeatureResolving = { _edition?: string; _resolveFeaturesRecursive(edition?: string): void };

/** a method as protobufjs' toJSON writes it into a service's definition */
interface MethodJSON {
  readonly requestType: string;
  readonly responseType: string;
  readonly requestStream?: boolean;
  readonly responseStream?: boolean;
  readonly parsedOptions?: Record<string, unknown>[];
}

const parentOf = (name: string) => name.slice(0, Math.max(0, name.lastIndexOf('.')));
const localOf = (name: string) => name.slice(name.lastIndexOf('.') + 1);

/**
 * LazyRoot is a protobufjs root that holds a prebuilt set's definitions once they are asked for, each with
 * every definition it needs: what protobufjs builds from the whole set's JSON, a piece at a time. Adding a
 * definition goes through protobufjs' own addJSON into its package, created with the package's options,
 * and the editions features every field's encoding depends on are resolved before anything is encoded.
 */
export class LazyRoot {
  readonly root = new protobuf.Root();
  readonly #definitions = new Map<string, DefinitionEntry>();
  readonly #packages = new Map<string, NamespaceEntry>();
  readonly #added = new Set<string>();
  readonly #index: ProtoIndex;

  constructor(index: ProtoIndex) {
    this.#index = index;
    if (index.options) this.root.setOptions(index.options);
    for (const e of index.entries)
      if ('def' in e) this.#definitions.set(e.def, e);
      else this.#packages.set(e.ns, e);
  }

  /** ensure adds `name` (a top-level definition's full name) and all it needs, unless they are there. */
  ensure(...names: readonly string[]): void {
    const todo = [...names];
    let added = false;
    for (let name = todo.pop(); name !== undefined; name = todo.pop()) {
      const def = this.#definitions.get(name);
      if (!def) throw new Error(`the prebuilt proto set has no definition '${name}'`);
      if (this.#add(def)) {
        todo.push(...def.deps);
        added = true;
      }
    }
    if (added) this.#resolveFeatures();
  }

  /** addAll adds every definition in the set's own order (which descriptors and JSON keep). */
  addAll(): void {
    for (const e of this.#index.entries)
      if ('def' in e) this.#add(e);
      else this.#package(e.ns);
    this.#resolveFeatures();
  }

  #add(def: DefinitionEntry): boolean {
    if (this.#added.has(def.def)) return false;
    this.#added.add(def.def);
    this.#package(parentOf(def.def)).addJSON({ [localOf(def.def)]: def.json });
    return true;
  }

  /** only what was added (and the packages above it) is marked for resolution; the rest is skipped */
  #resolveFeatures(): void {
    const r = this.root as unknown as FeatureResolving;
    r._resolveFeaturesRecursive(r._edition);
  }

  #package(name: string): protobuf.Namespace {
    if (name === '') return this.root;
    const parent = this.#package(parentOf(name));
    const found = parent.nested?.[localOf(name)];
    if (found) return found as protobuf.Namespace;
    const ns = new protobuf.Namespace(
      localOf(name),
      this.#packages.get(name)?.options as Record<string, unknown>,
    );
    parent.add(ns);
    return ns;
  }
}

/** fullRoot builds the whole set in its original order: the root descriptors are made from. */
function fullRoot(index: ProtoIndex): protobuf.Root {
  const lazy = new LazyRoot(index);
  lazy.addAll();
  return lazy.root;
}

/** once returns make's value, made on the first call. */
function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/**
 * lazyPackageDefinition is what proto-loader's fromJSON returns for the set `index` was made from, built on
 * demand: a service's methods are listed from its own definition, and a method's request and response types
 * are built when it first serializes or deserializes. `ext` is called the first time a descriptor (a
 * definition's `type` or `fileDescriptorProtos`) is read; descriptors come from the whole set, built then.
 * `codecs`, built with the executable (prebuiltCodecSources), serve the types they cover.
 */
export function lazyPackageDefinition(
  index: ProtoIndex,
  options: Options,
  ext: DescriptorExtension,
  codecs?: PrebuiltCodecs,
): PackageDefinition {
  lazyCodecs(); // a call generates the two codecs per type it uses, not all five
  const lazyRoot = new LazyRoot(index);
  if (codecs) usePrebuiltCodecs(lazyRoot.root, codecs);
  const whole = once(() => {
    ext(); // toDescriptor exists once the extension is loaded
    const root = fullRoot(index);
    // a descriptor names field types: everything must be resolved
    root.resolveAll();
    return root;
  });
  const fileDescriptorProtos = once(() => fileBuffers(whole(), ext));
  const describe = (name: string) => () =>
    descriptorObject(whole().lookup(name) as Descriptorish & protobuf.ReflectionObject);
  const codec = (cls: () => Cls) => {
    const ser = once(() => serializer(cls()));
    const de = once(() => deserializer(cls(), options));
    return { serialize: (arg: object) => ser()(arg), deserialize: (buf: Buffer) => de()(buf) };
  };
  const message = (name: string, cls: () => Cls) => {
    const { serialize, deserialize } = codec(cls);
    const def: Record<string, unknown> = {
      format: 'Protocol Buffer 3 DescriptorProto',
      serialize,
      deserialize,
    };
    lazy(def, 'type', describe(name));
    lazy(def, 'fileDescriptorProtos', fileDescriptorProtos);
    return def;
  };
  const topMessage = (name: string) =>
    message(name, () => {
      lazyRoot.ensure(name);
      return lazyRoot.root.lookupType(name);
    });
  const enumeration = (name: string) => {
    const def: Record<string, unknown> = { format: 'Protocol Buffer 3 EnumDescriptorProto' };
    lazy(def, 'type', describe(name));
    lazy(def, 'fileDescriptorProtos', fileDescriptorProtos);
    return def;
  };
  // A service is listed from its JSON, with nothing added to the root: its methods' types are added, and
  // resolved from the service's package as protobufjs resolves them, when a method is first used.
  const service = (entry: DefinitionEntry) => {
    const name = entry.def;
    const methods = (entry.json as { methods?: Record<string, MethodJSON> }).methods ?? {};
    const def: Record<string, unknown> = {};
    for (const [methodName, m] of Object.entries(methods)) {
      const types = once(() => {
        lazyRoot.ensure(...(index.methods[`${name}.${methodName}`] ?? []));
        const pkg = parentOf(name);
        const scope = pkg ? (lazyRoot.root.lookup(pkg) as protobuf.Namespace) : lazyRoot.root;
        return { req: scope.lookupType(m.requestType), res: scope.lookupType(m.responseType) };
      });
      const req = codec(() => types().req);
      const res = codec(() => types().res);
      const method: Record<string, unknown> = {
        path: `/${name}/${methodName}`,
        requestStream: !!m.requestStream,
        responseStream: !!m.responseStream,
        requestSerialize: req.serialize,
        requestDeserialize: req.deserialize,
        responseSerialize: res.serialize,
        responseDeserialize: res.deserialize,
        originalName: camelCase(methodName),
      };
      lazy(method, 'requestType', () => message(bareName(types().req), () => types().req));
      lazy(method, 'responseType', () => message(bareName(types().res), () => types().res));
      lazy(method, 'options', () => methodOptions(m.parsedOptions));
      def[methodName] = method;
    }
    return def;
  };

  const out: Record<string, unknown> = {};
  for (const e of index.entries) {
    if (!('def' in e)) continue;
    const name = e.def;
    if (e.kind === 'service') lazy(out, name, () => service(e));
    else if (e.kind === 'message') lazy(out, name, () => topMessage(name));
    else if (e.kind === 'enum') lazy(out, name, () => enumeration(name));
  }
  return out as unknown as PackageDefinition;
}

const bareName = (obj: protobuf.ReflectionObject) => obj.fullName.replace(/^\./, '');

function fileBuffers(root: protobuf.Root, ext: DescriptorExtension): Buffer[] {
  const descriptor = ext();
  root.resolveAll();
  const set = (root as unknown as { toDescriptor(s: string): { file: object[] } }).toDescriptor('proto3');
  const FileDescriptorProto = (descriptor as unknown as { FileDescriptorProto: protobuf.Type })
    .FileDescriptorProto;
  return set.file.map((f) => Buffer.from(FileDescriptorProto.encode(f as protobuf.Message).finish()));
}
