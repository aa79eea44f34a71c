// lazyCodecs: each protobufjs codec generated when first called, the same functions protobufjs generates.
import protobuf from 'protobufjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { lazyCodecs } from '../../src/api/proto-codecs.js';

const JSON_SET = {
  nested: {
    demo: {
      nested: {
        Kind: { values: { UNKNOWN: 0, NODE: 1 } },
        Meta: { fields: { hostname: { type: 'string', id: 1 }, kind: { type: 'Kind', id: 2 } } },
        Reply: {
          fields: {
            meta: { type: 'Meta', id: 1 },
            tags: { rule: 'repeated', type: 'string', id: 2 },
            size: { type: 'uint64', id: 3 },
            labels: { keyType: 'string', type: 'string', id: 4 },
            at: { type: 'google.protobuf.Timestamp', id: 5 },
          },
        },
      },
    },
    google: {
      nested: {
        protobuf: {
          nested: {
            Timestamp: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
          },
        },
      },
    },
  },
};
const CODECS = ['encode', 'decode', 'verify', 'fromObject', 'toObject'] as const;
const SAMPLE = {
  meta: { hostname: 'node-1', kind: 'NODE' },
  tags: ['a', 'b'],
  size: '18446744073709551615',
  labels: { zone: 'a' },
  at: { seconds: '1700000000', nanos: 5 },
};
const OPTIONS = { longs: String, enums: String, defaults: true };

const freshType = (name: string) => protobuf.Root.fromJSON(JSON_SET).lookupType(name);

/** what protobufjs' own (eager) setup makes, taken before lazyCodecs is installed */
let eager: { sources: Record<string, string[]>; bytes: Buffer; object: unknown };

beforeAll(() => {
  const reply = freshType('demo.Reply');
  const bytes = Buffer.from(reply.encode(reply.fromObject(SAMPLE)).finish());
  const object = reply.toObject(reply.decode(bytes), OPTIONS);
  const sources: Record<string, string[]> = {};
  for (const name of ['demo.Reply', 'demo.Meta']) {
    const t = reply.root.lookupType(name).setup() as unknown as Record<string, () => unknown>;
    sources[name] = CODECS.map((c) => String(t[c]));
  }
  eager = { sources, bytes, object };
  lazyCodecs();
});

afterEach(() => vi.restoreAllMocks());

describe('lazyCodecs', () => {
  it('generates only the codecs a reply and a request use', () => {
    const spies = {
      encoder: vi.spyOn(protobuf, 'encoder'),
      decoder: vi.spyOn(protobuf, 'decoder'),
      verifier: vi.spyOn(protobuf, 'verifier'),
    };
    const reply = freshType('demo.Reply');
    reply.encode(reply.fromObject(SAMPLE)).finish();
    expect(spies.encoder).toHaveBeenCalled();
    expect(spies.decoder).not.toHaveBeenCalled();
    expect(spies.verifier).not.toHaveBeenCalled();
  });

  it('generates the same functions as protobufjs, each once', () => {
    const reply = freshType('demo.Reply');
    const t = reply as unknown as Record<string, (...a: unknown[]) => unknown>;
    t.verify!({});
    reply.toObject(reply.decode(reply.encode(reply.fromObject(SAMPLE)).finish()));
    const meta = reply.root.lookupType('demo.Meta') as unknown as Record<string, unknown>;
    expect(CODECS.map((c) => String(t[c]))).toEqual(eager.sources['demo.Reply']);
    // Meta's encode and fromObject ran inside Reply's; its decode and toObject too
    for (const c of ['encode', 'decode', 'fromObject', 'toObject'] as const)
      expect(String(meta[c])).toBe(eager.sources['demo.Meta']![CODECS.indexOf(c)]);
    const encoder = vi.spyOn(protobuf, 'encoder');
    reply.encode(reply.fromObject(SAMPLE));
    expect(encoder).not.toHaveBeenCalled();
  });

  it('encodes and decodes byte for byte as the eager codecs do, wrappers included', () => {
    const reply = freshType('demo.Reply');
    const bytes = Buffer.from(reply.encode(reply.fromObject(SAMPLE)).finish());
    expect(bytes).toEqual(eager.bytes);
    expect(reply.toObject(reply.decode(bytes), OPTIONS)).toEqual(eager.object);
  });

  it('is installed once', () => {
    const setup = protobuf.Type.prototype.setup;
    lazyCodecs();
    expect(protobuf.Type.prototype.setup).toBe(setup);
  });
});
