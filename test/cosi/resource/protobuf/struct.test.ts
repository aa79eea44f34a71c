// google.protobuf.Struct fields (kind 'struct'): a JSON object on the wire as Go's structpb writes it
// (checked against bytes from proto.MarshalOptions{Deterministic: true} over structpb.NewStruct of the same
// JSON, Go 1.26, google.golang.org/protobuf v1.36.11), read back as the same object.
import { describe, expect, it } from 'vitest';
import type { ProtoSchema } from '../../../../src/cosi/resource/proto-schema.js';
import { ProtoError } from '../../../../src/cosi/resource/protobuf/errors.js';
import { decodeSpec, encodeSpec, zeroSpec } from '../../../../src/cosi/resource/protobuf/spec.js';
import { ProtoWriter, WireType } from '../../../../src/cosi/resource/protobuf/wire.js';

const SCHEMA: ProtoSchema = { doc: { no: 1, kind: 'struct' } };

/** a kubelet's pod status, with the corners: null, an empty object and list, a negative float, a non-ASCII key */
const SAMPLE = {
  phase: 'Running',
  conditions: [
    { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-02T03:04:05Z' },
  ],
  containerStatuses: [
    {
      name: 'kube-scheduler',
      ready: false,
      restartCount: 3,
      started: false,
      state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s' } },
      lastState: {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          message: 'Error: unknown flag: --bogus\n',
          startedAt: '2025-01-02T03:04:05Z',
        },
      },
    },
  ],
  hostIPs: [{ ip: '127.0.0.1' }],
  qosClass: 'Burstable',
  podIP: '',
  x: {},
  y: [],
  z: -0.5,
  big: 12345678901,
  ünï: 'ок',
};

const GO_STRUCT = Buffer.from(
  '0a100a036269671209110000a8e1e0fe06420a7a0a0a636f6e646974696f6e73126c326a0a682a660a130a0d6c61737450726f626554696d65120208000a2c0a126c6173745472616e736974696f6e54696d6512161a14323032352d30312d30325430333a30343a30355a0a100a0673746174757312061a04547275650a0f0a047479706512071a0552656164790ae7020a11636f6e7461696e6572537461747573657312d10232ce020acb022ac8020a9f010a096c61737453746174651291012a8e010a8b010a0a7465726d696e61746564127d2a7b0a150a0865786974436f6465120911000000000000f03f0a2a0a076d657373616765121f1a1d4572726f723a20756e6b6e6f776e20666c61673a202d2d626f6775730a0a110a06726561736f6e12071a054572726f720a230a0973746172746564417412161a14323032352d30312d30325430333a30343a30355a0a180a046e616d6512101a0e6b7562652d7363686564756c65720a0b0a057265616479120220000a190a0c72657374617274436f756e7412091100000000000008400a0d0a0773746172746564120220000a530a057374617465124a2a480a460a0777616974696e67123b2a390a190a076d657373616765120e1a0c6261636b2d6f6666203430730a1c0a06726561736f6e12121a1043726173684c6f6f704261636b4f66660a240a07686f7374495073121932170a152a130a110a026970120b1a093132372e302e302e310a120a05706861736512091a0752756e6e696e670a0b0a05706f64495012021a000a170a08716f73436c617373120b1a09427572737461626c650a070a017812022a000a070a0179120232000a0e0a017a120911000000000000e0bf0a0f0a05c3bc6ec3af12061a04d0bed0ba',
  'hex',
);

/** field 1 framing the Struct, as the spec message carries it */
const framed = (inner: Uint8Array) => new ProtoWriter().tag(1, WireType.Bytes).bytes(inner).finish();

describe("the 'struct' kind (google.protobuf.Struct)", () => {
  it('writes what Go writes, keys in sorted order, a oneof kind even when zero', () => {
    expect(Buffer.from(encodeSpec({ doc: SAMPLE }, SCHEMA)).toString('hex')).toBe(
      Buffer.from(framed(GO_STRUCT)).toString('hex'),
    );
  });

  it('reads back the same JSON value', () => {
    expect(decodeSpec(framed(GO_STRUCT), SCHEMA)).toEqual({ doc: SAMPLE });
    const back = decodeSpec(encodeSpec({ doc: { a: [1, 'x', true, null, [], {}] } }, SCHEMA), SCHEMA);
    expect(back).toEqual({ doc: { a: [1, 'x', true, null, [], {}] } });
  });

  it('is an empty object when absent, and an empty Struct is still written', () => {
    expect(zeroSpec(SCHEMA)).toEqual({ doc: {} });
    expect(decodeSpec(new Uint8Array(0), SCHEMA)).toEqual({ doc: {} });
    expect(Buffer.from(encodeSpec({ doc: {} }, SCHEMA)).toString('hex')).toBe('0a00');
    expect(encodeSpec({}, SCHEMA)).toEqual(new Uint8Array(0));
  });

  it('reads a Value without a kind as null, and skips unknown fields', () => {
    // Struct{fields: {"k": Value{}}} plus an unknown varint field 9 in the Struct
    const entry = new ProtoWriter()
      .tag(1, WireType.Bytes)
      .string('k')
      .tag(2, WireType.Bytes)
      .bytes(new Uint8Array(0));
    const struct = new ProtoWriter()
      .tag(1, WireType.Bytes)
      .bytes(entry.finish())
      .tag(9, WireType.Varint)
      .int32(7);
    expect(decodeSpec(framed(struct.finish()), SCHEMA)).toEqual({ doc: { k: null } });
  });

  it('refuses what JSON cannot hold, naming where', () => {
    const bad = (doc: unknown) => () => encodeSpec({ doc }, SCHEMA);
    expect(bad({ a: [1, undefined] })).toThrow(ProtoError);
    expect(bad({ a: [1, undefined] })).toThrow('spec.doc.a[1]: expected a JSON value');
    expect(bad({ n: Number.NaN })).toThrow('spec.doc.n: NaN is not a JSON number');
    expect(bad({ b: 1n })).toThrow('spec.doc.b: expected a JSON value');
    expect(bad([1])).toThrow('spec.doc: expected a JSON value');
  });
});
