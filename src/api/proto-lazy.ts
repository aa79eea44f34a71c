// proto-loader's package definition, made lazily. proto-loader builds the definition of every message, enum
// and service, and the file descriptors of every file, up front; a server needs only its services' methods
// to start. Under emulation that up-front work was about half of loading the API's protos, so the single
// executable builds each definition (and each method's request/response type) on first access instead.
// The shapes and values are proto-loader's: the tests compare both field by field.
// protobufjs' descriptor extension (toDescriptor on reflection objects) is loaded only when a descriptor is
// first asked for: loading it builds a second protobufjs root, descriptor.proto's, which under emulation
// cost more than a tenth of a second of every boot while only reflection reads descriptors.
import type { Options, PackageDefinition } from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import type descriptor from 'protobufjs/ext/descriptor/index.js';

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

function descriptorObject(obj: Descriptorish & protobuf.ReflectionObject, ext: DescriptorExtension): object {
  ext(); // toDescriptor exists once the extension is loaded
  // a descriptor names field types: everything must be resolved (a no-op once it is)
  obj.root.resolveAll();
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

/**
 * rootFromJSON is protobufjs' Root.fromJSON without its resolveAll: the features every field's encoding
 * depends on are resolved for all, but type references only where used (protobufjs resolves a message's
 * fields when it first encodes or decodes one, a method's types in Method.resolve). Under emulation the
 * skipped part was about 40 % of building the API's root.
 */
export function rootFromJSON(
  json: protobuf.INamespace & { options?: Record<string, unknown> },
): protobuf.Root {
  const root = new protobuf.Root();
  if (json.options) root.setOptions(json.options);
  root.addJSON(json.nested ?? {});
  const r = root as unknown as FeatureResolving;
  r._resolveFeaturesRecursive(r._edition);
  return root;
}

/**
 * lazyPackageDefinition is what proto-loader's fromJSON returns for `root`, built on demand; `ext` is
 * called the first time a descriptor (a definition's `type` or `fileDescriptorProtos`) is read.
 */
export function lazyPackageDefinition(
  root: protobuf.Root,
  options: Options,
  ext: DescriptorExtension,
): PackageDefinition {
  let files: Buffer[] | undefined;
  const fileDescriptorProtos = () => {
    files ??= fileBuffers(root, ext);
    return files;
  };
  const message = (cls: Cls) => {
    const def: Record<string, unknown> = {
      format: 'Protocol Buffer 3 DescriptorProto',
      serialize: serializer(cls),
      deserialize: deserializer(cls, options),
    };
    lazy(def, 'type', () => descriptorObject(cls as Cls & Descriptorish, ext));
    lazy(def, 'fileDescriptorProtos', fileDescriptorProtos);
    return def;
  };
  const enumeration = (e: protobuf.Enum) => {
    const def: Record<string, unknown> = { format: 'Protocol Buffer 3 EnumDescriptorProto' };
    lazy(def, 'type', () => descriptorObject(e as protobuf.Enum & Descriptorish, ext));
    lazy(def, 'fileDescriptorProtos', fileDescriptorProtos);
    return def;
  };
  const service = (svc: protobuf.Service, name: string) => {
    const def: Record<string, unknown> = {};
    for (const m of svc.methodsArray) {
      m.resolve();
      const req = m.resolvedRequestType!;
      const res = m.resolvedResponseType!;
      const method: Record<string, unknown> = {
        path: `/${name}/${m.name}`,
        requestStream: !!m.requestStream,
        responseStream: !!m.responseStream,
        requestSerialize: serializer(req),
        requestDeserialize: deserializer(req, options),
        responseSerialize: serializer(res),
        responseDeserialize: deserializer(res, options),
        originalName: camelCase(m.name),
      };
      lazy(method, 'requestType', () => message(req));
      lazy(method, 'responseType', () => message(res));
      lazy(method, 'options', () => methodOptions(m.parsedOptions as Record<string, unknown>[] | undefined));
      def[m.name] = method;
    }
    return def;
  };

  const out: Record<string, unknown> = {};
  const walk = (obj: protobuf.ReflectionObject, parent: string) => {
    const name = parent === '' ? obj.name : `${parent}.${obj.name}`;
    if (obj instanceof protobuf.Service) lazy(out, name, () => service(obj, name));
    else if (obj instanceof protobuf.Type) lazy(out, name, () => message(obj));
    else if (obj instanceof protobuf.Enum) lazy(out, name, () => enumeration(obj));
    else if (obj instanceof protobuf.Namespace && obj.nested)
      for (const child of Object.values(obj.nested)) walk(child, name);
  };
  walk(root, '');
  return out as unknown as PackageDefinition;
}

function fileBuffers(root: protobuf.Root, ext: DescriptorExtension): Buffer[] {
  const descriptor = ext();
  root.resolveAll();
  const set = (root as unknown as { toDescriptor(s: string): { file: object[] } }).toDescriptor('proto3');
  const FileDescriptorProto = (descriptor as unknown as { FileDescriptorProto: protobuf.Type })
    .FileDescriptorProto;
  return set.file.map((f) => Buffer.from(FileDescriptorProto.encode(f as protobuf.Message).finish()));
}
