// Protobuf messages for a fuzz: well-shaped ones built from a method's request descriptor (each field a
// random value of its wire type, nested messages resolved where the package definition has them), and
// mutations of those bytes (flips, cuts, splices, lies about lengths), as a parser meets in the wild.
import type { Rng } from './random.js';

interface FieldDescriptor {
  readonly name: string;
  readonly number: number;
  readonly label: string;
  readonly type: string;
  readonly typeName: string;
}

interface MessageDescriptor {
  readonly field: readonly FieldDescriptor[];
}

/** what a package definition holds per message type: its descriptor under `type` */
export type Definitions = Readonly<Record<string, { readonly type?: unknown } | unknown>>;

const varint = (n: bigint): Buffer => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, n);
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
};

const tag = (field: number, wire: number) => varint(BigInt((field << 3) | wire));

/** the values that break parsers most: edges of each integer width */
const EDGES = [
  0n,
  1n,
  -1n,
  127n,
  128n,
  255n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 32n,
  2n ** 63n - 1n,
  -(2n ** 63n),
];

const STRINGS = [
  '',
  '/',
  '..',
  '../../etc/shadow',
  '/proc/self/mem',
  '*',
  '%s%n',
  '\u0000',
  '日本',
  '🚀',
  'a'.repeat(4096),
];

function randomString(rng: Rng): string {
  if (rng.chance(0.4)) return rng.pick(STRINGS);
  return rng.bytes(rng.size(256)).toString('latin1');
}

/** resolve finds a field's message type by protobuf's scoping: innermost scope of `scope` outwards */
function resolve(defs: Definitions, scope: string, typeName: string): MessageDescriptor | undefined {
  const name = typeName.replace(/^\./, '');
  const parts = scope.split('.');
  for (let i = parts.length; i >= 0; i--) {
    const full = [...parts.slice(0, i), name].join('.');
    const entry = defs[full] as { type?: MessageDescriptor } | undefined;
    if (entry?.type && Array.isArray(entry.type.field)) return entry.type;
  }
  return undefined;
}

function fieldValue(rng: Rng, defs: Definitions, scope: string, f: FieldDescriptor, depth: number): Buffer {
  switch (f.type) {
    case 'TYPE_BOOL':
      return Buffer.concat([tag(f.number, 0), varint(BigInt(rng.int(3)))]);
    case 'TYPE_ENUM':
      return Buffer.concat([
        tag(f.number, 0),
        varint(rng.chance(0.8) ? BigInt(rng.int(6)) : rng.pick(EDGES)),
      ]);
    case 'TYPE_INT32':
    case 'TYPE_INT64':
    case 'TYPE_UINT32':
    case 'TYPE_UINT64':
    case 'TYPE_SINT32':
    case 'TYPE_SINT64':
      return Buffer.concat([
        tag(f.number, 0),
        varint(rng.chance(0.5) ? rng.pick(EDGES) : BigInt(rng.next())),
      ]);
    case 'TYPE_FIXED32':
    case 'TYPE_SFIXED32':
    case 'TYPE_FLOAT':
      return Buffer.concat([tag(f.number, 5), rng.bytes(4)]);
    case 'TYPE_FIXED64':
    case 'TYPE_SFIXED64':
    case 'TYPE_DOUBLE':
      return Buffer.concat([tag(f.number, 1), rng.bytes(8)]);
    case 'TYPE_MESSAGE': {
      const nested = resolve(defs, scope, f.typeName);
      const body =
        nested && depth < 4
          ? messageBytes(rng, defs, f.typeName.replace(/^\./, ''), nested, depth + 1)
          : rng.bytes(rng.size(64));
      return Buffer.concat([tag(f.number, 2), varint(BigInt(body.length)), body]);
    }
    default: {
      const body = f.type === 'TYPE_STRING' ? Buffer.from(randomString(rng)) : rng.bytes(rng.size(512));
      return Buffer.concat([tag(f.number, 2), varint(BigInt(body.length)), body]);
    }
  }
}

function messageBytes(
  rng: Rng,
  defs: Definitions,
  scope: string,
  d: MessageDescriptor,
  depth: number,
): Buffer {
  const parts: Buffer[] = [];
  for (const f of d.field) {
    if (rng.chance(0.3)) continue; // absent
    const n = f.label === 'LABEL_REPEATED' ? rng.int(4) : 1;
    for (let i = 0; i < n; i++) parts.push(fieldValue(rng, defs, scope, f, depth));
  }
  // a field number the type does not declare, now and then: parsers must skip it
  if (rng.chance(0.1)) parts.push(Buffer.concat([tag(1000 + rng.int(1000), 2), varint(3n), rng.bytes(3)]));
  return Buffer.concat(parts);
}

/** wellShaped is a message of type `typeName`, every field it sets of the right wire type */
export function wellShaped(rng: Rng, defs: Definitions, typeName: string, d: MessageDescriptor): Buffer {
  return messageBytes(rng, defs, typeName, d, 0);
}

/** mutate applies one to three byte-level mutations to `msg` */
export function mutate(rng: Rng, msg: Buffer): Buffer {
  let out = Buffer.from(msg);
  for (let k = 1 + rng.int(3); k > 0; k--) {
    const at = rng.int(out.length + 1);
    switch (rng.int(7)) {
      case 0: // flip a bit
        if (out.length) out[rng.int(out.length)]! ^= 1 << rng.int(8);
        break;
      case 1: // cut the end off
        out = out.subarray(0, at);
        break;
      case 2: // drop a run
        out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1 + rng.int(8))]);
        break;
      case 3: // insert random bytes
        out = Buffer.concat([out.subarray(0, at), rng.bytes(1 + rng.int(8)), out.subarray(at)]);
        break;
      case 4: // a length or varint that lies: all continuation bits
        out = Buffer.concat([out.subarray(0, at), Buffer.alloc(1 + rng.int(10), 0xff), out.subarray(at)]);
        break;
      case 5: // repeat a run (a field given twice)
        out = Buffer.concat([out, out.subarray(at, at + 1 + rng.int(32))]);
        break;
      default: // a byte set to an edge
        if (out.length) out[rng.int(out.length)] = rng.pick([0x00, 0x7f, 0x80, 0xff]);
    }
  }
  return out;
}
