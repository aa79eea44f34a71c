// protobufjs generates a message type's five codecs (encode, decode, verify, fromObject, toObject) together,
// as JavaScript compiled at run time, the first time any of them is used. A gRPC call uses two of them per
// type: a reply fromObject and encode, a request decode and toObject; verify is never called. Under TCG the
// generation of one call's types was most of that call's cost the first time (~0.1 s for Version's).
// With lazyCodecs each codec is generated the first time it is called, by the same generators, with the
// same scope: the same functions, fewer of them.
//
// A root can also carry codecs built into the executable (prebuiltCodecSources, at build time, for the
// types of FIRST_CALLS; each type costs ~3 KB of bundle, so not for all): a type found there takes them
// instead of generating its own, so the first call of a method they cover compiles nothing at run time
// and its codecs' bytecode sits in the code cache (VM profile of Version's first answer: its reply's
// codecs 57 -> 35 ms; the types themselves are still built on first use).
import protobuf from 'protobufjs';
import type { ProtoIndex } from './proto-index.js';

type Codec = (...args: unknown[]) => unknown;
type Setup = (this: protobuf.Type) => protobuf.Type;

/** the names a generated codec's source refers to, besides its own arguments */
export interface CodecScope {
  readonly Writer: typeof protobuf.Writer;
  readonly Reader: typeof protobuf.Reader;
  readonly types: unknown[];
  readonly util: typeof protobuf.util;
}

const CODEC_NAMES = ['encode', 'decode', 'verify', 'fromObject', 'toObject'] as const;
export type CodecName = (typeof CODEC_NAMES)[number];

/** a prebuilt codec: its generated source, wrapped in a function of the scope it is finished with */
export type CodecFactory = (scope: CodecScope) => Codec;
/** prebuilt codecs by type full name (no leading dot) */
export type PrebuiltCodecs = Readonly<Record<string, Readonly<Partial<Record<CodecName, CodecFactory>>>>>;

const LAZY = Symbol.for('keel.lazyCodecs');

/** a generator's Codegen, finished with its scope, is the codec */
const finish = (gen: protobuf.Codegen, scope: CodecScope) => gen(scope as never) as unknown as Codec;

/** the generators protobufjs' own Type.setup uses, each finished with the names its source refers to */
const GENERATORS: Record<CodecName, (type: protobuf.Type) => protobuf.Codegen> = {
  encode: (t) => protobuf.encoder(t),
  decode: (t) => protobuf.decoder(t),
  verify: (t) => protobuf.verifier(t),
  fromObject: (t) => protobuf.converter.fromObject(t),
  toObject: (t) => protobuf.converter.toObject(t),
};

/**
 * The calls a client makes first of a node that has just booted, whose types' codecs the executable
 * carries: `talosctl version` (and every tool that waits for a node by asking its version) and
 * `apply-config --insecure`.
 */
export const FIRST_CALLS = [
  'machine.MachineService.Version',
  'machine.MachineService.ApplyConfiguration',
] as const;

/** the codecs each root was given, by type */
const prebuiltOf = new WeakMap<protobuf.Root, PrebuiltCodecs>();

/** usePrebuiltCodecs gives the types of `root` the codecs built for them; the rest still generate theirs. */
export function usePrebuiltCodecs(root: protobuf.Root, codecs: PrebuiltCodecs): void {
  prebuiltOf.set(root, codecs);
}

/**
 * prebuiltCodecSources generates, at build time, the codecs of every message type in `root` (a LazyRoot
 * holding what FIRST_CALLS need, as a node builds it): the sources lazyCodecs would generate
 * on the node. verify is left out: a call never uses it.
 */
export function prebuiltCodecSources(
  root: protobuf.Root,
): Record<string, Record<Exclude<CodecName, 'verify'>, string>> {
  const out: Record<string, Record<Exclude<CodecName, 'verify'>, string>> = {};
  const walk = (ns: protobuf.ReflectionObject) => {
    if (ns instanceof protobuf.Type && !protobuf.wrappers[ns.fullName]) {
      out[ns.fullName.slice(1)] = {
        encode: GENERATORS.encode(ns).toString(),
        decode: GENERATORS.decode(ns).toString(),
        fromObject: GENERATORS.fromObject(ns).toString(),
        toObject: GENERATORS.toObject(ns).toString(),
      };
    }
    if (ns instanceof protobuf.Namespace) for (const n of ns.nestedArray) walk(n);
  };
  walk(root);
  return out;
}

/** the index's top-level definitions `methods` need (a LazyRoot ensures these and their dependencies) */
export const definitionsFor = (index: ProtoIndex, methods: readonly string[]): string[] => [
  ...new Set(methods.flatMap((m) => index.methods[m] ?? [])),
];

/**
 * renderPrebuiltCodecs is the JavaScript of a PrebuiltCodecs object for the sources above: each source
 * becomes the codec a factory returns, with the scope's names in reach as protobufjs' Codegen gives them.
 */
export function renderPrebuiltCodecs(sources: Record<string, Record<string, string>>): string {
  const entries = Object.entries(sources).map(([type, codecs]) => {
    const fns = Object.entries(codecs).map(
      ([name, src]) => `${name}: ({ Writer, Reader, types, util }) => ${src}`,
    );
    return `${JSON.stringify(type)}: {\n${fns.join(',\n')}\n}`;
  });
  return `{\n${entries.join(',\n')}\n}`;
}

/**
 * lazyCodecs makes every protobufjs message type generate each codec when it is first called (for the whole
 * process, once). Types with one of protobufjs' wrappers (google.protobuf.Any) keep the eager setup, which
 * wraps their generated converters.
 */
export function lazyCodecs(): void {
  const proto = protobuf.Type.prototype as unknown as { setup: Setup & { [LAZY]?: true } };
  if (proto.setup[LAZY]) return;
  const eager = proto.setup;
  const setup = function (this: protobuf.Type): protobuf.Type {
    if (protobuf.wrappers[this.fullName]) return eager.call(this);
    const types: unknown[] = this.fieldsArray.map((f) => f.resolve().resolvedType);
    const scope: CodecScope = {
      Writer: protobuf.Writer,
      Reader: protobuf.Reader,
      types,
      util: protobuf.util,
    };
    const prebuilt = prebuiltOf.get(this.root)?.[this.fullName.slice(1)];
    const self = this as unknown as Record<string, Codec>;
    for (const name of CODEC_NAMES) {
      // the first call makes the codec (prebuilt, else generated), puts it in place on this type, runs it
      self[name] = function (this: unknown, ...args: unknown[]) {
        const make = prebuilt?.[name];
        const codec = make ? make(scope) : finish(GENERATORS[name](self as unknown as protobuf.Type), scope);
        self[name] = codec;
        return codec.apply(this, args);
      };
    }
    return this;
  };
  proto.setup = Object.assign(setup, { [LAZY]: true as const });
}
