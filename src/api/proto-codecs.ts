// protobufjs generates a message type's five codecs (encode, decode, verify, fromObject, toObject) together,
// as JavaScript compiled at run time, the first time any of them is used. A gRPC call uses two of them per
// type: a reply fromObject and encode, a request decode and toObject; verify is never called. Under TCG the
// generation of one call's types was most of that call's cost the first time (~0.1 s for Version's).
// With lazyCodecs each codec is generated the first time it is called, by the same generators, with the
// same scope: the same functions, fewer of them.
import protobuf from 'protobufjs';

type Codec = (...args: unknown[]) => unknown;
type Setup = (this: protobuf.Type) => protobuf.Type;

const LAZY = Symbol.for('keel.lazyCodecs');

/** a generator's Codegen, finished with its scope, is the codec */
const finish = (gen: protobuf.Codegen, scope: Record<string, unknown>) => gen(scope) as unknown as Codec;

/** the generators protobufjs' own Type.setup uses, with the scope each is finished with */
const GENERATORS: Record<string, (type: protobuf.Type, types: unknown[]) => Codec> = {
  encode: (t, types) => finish(protobuf.encoder(t), { Writer: protobuf.Writer, types, util: protobuf.util }),
  decode: (t, types) => finish(protobuf.decoder(t), { Reader: protobuf.Reader, types, util: protobuf.util }),
  verify: (t, types) => finish(protobuf.verifier(t), { types, util: protobuf.util }),
  fromObject: (t, types) => finish(protobuf.converter.fromObject(t), { types, util: protobuf.util }),
  toObject: (t, types) => finish(protobuf.converter.toObject(t), { types, util: protobuf.util }),
};

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
    const self = this as unknown as Record<string, Codec>;
    for (const [name, generate] of Object.entries(GENERATORS)) {
      // the first call generates the codec, puts it in place on this type, then runs it
      self[name] = function (this: unknown, ...args: unknown[]) {
        const codec = generate(self as unknown as protobuf.Type, types);
        self[name] = codec;
        return codec.apply(this, args);
      };
    }
    return this;
  };
  proto.setup = Object.assign(setup, { [LAZY]: true as const });
}
