// A small protobuf reader for the tests: the top-level fields of a message, to check numbers by hand.

export interface WireField {
  no: number;
  wt: number;
  /** varint value, or the bytes of a length-delimited field */
  value: bigint | Uint8Array;
}

function varint(b: Uint8Array, at: { p: number }): bigint {
  let out = 0n;
  let shift = 0n;
  for (;;) {
    const x = b[at.p++]!;
    out |= BigInt(x & 0x7f) << shift;
    if ((x & 0x80) === 0) return out;
    shift += 7n;
  }
}

/** wireFields lists a message's fields in wire order (varints and length-delimited only). */
export function wireFields(b: Uint8Array): WireField[] {
  const out: WireField[] = [];
  const at = { p: 0 };
  while (at.p < b.length) {
    const tag = Number(varint(b, at));
    const no = tag >>> 3;
    const wt = tag & 7;
    if (wt === 0) out.push({ no, wt, value: varint(b, at) });
    else if (wt === 2) {
      const n = Number(varint(b, at));
      out.push({ no, wt, value: b.subarray(at.p, at.p + n) });
      at.p += n;
    } else throw new Error(`wire type ${wt} not handled`);
  }
  return out;
}

/** field finds one field by number, failing loudly when it is absent. */
export function field(b: Uint8Array, no: number): WireField {
  const f = wireFields(b).find((x) => x.no === no);
  if (!f) throw new Error(`field ${no} is absent`);
  return f;
}
