// DER reader: walks tag-length-value nodes without copying, enough to read back what a certificate says.
// Errors are plain; the caller wraps them with what it was reading.

export interface Node {
  readonly tag: number;
  /** the node's value bytes, a view into the input */
  readonly value: Buffer;
  /** the whole encoding (tag, length and value), for hashing or re-emitting */
  readonly raw: Buffer;
}

/** read decodes one node at offset; `next` is where the following sibling starts. */
export function read(buf: Buffer, offset = 0): Node & { next: number } {
  if (offset + 2 > buf.length) throw new Error(`truncated DER at byte ${offset}`);
  const tag = buf[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new Error(`multi-byte DER tag at byte ${offset}`);
  let len = buf[offset + 1]!;
  let head = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error(`unsupported DER length form at byte ${offset}`);
    if (offset + 2 + n > buf.length) throw new Error(`truncated DER length at byte ${offset}`);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[offset + 2 + i]!;
    head += n;
  }
  const end = offset + head + len;
  if (end > buf.length) throw new Error(`DER value at byte ${offset} runs past the end`);
  return { tag, value: buf.subarray(offset + head, end), raw: buf.subarray(offset, end), next: end };
}

/** children lists the nodes inside a constructed node. */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let at = 0; at < node.value.length; ) {
    const n = read(node.value, at);
    out.push(n);
    at = n.next;
  }
  return out;
}

/** expect checks a node's tag, naming what was expected. */
export function expect(node: Node | undefined, tag: number, what: string): Node {
  if (!node) throw new Error(`missing ${what}`);
  if (node.tag !== tag)
    throw new Error(`${what}: expected tag 0x${tag.toString(16)}, got 0x${node.tag.toString(16)}`);
  return node;
}

export function readOid(node: Node): string {
  const b = expect(node, 0x06, 'object identifier').value;
  if (b.length === 0) throw new Error('empty object identifier');
  const first = b[0]!;
  const arcs = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  let v = 0;
  for (let i = 1; i < b.length; i++) {
    v = v * 128 + (b[i]! & 0x7f);
    if (!(b[i]! & 0x80)) {
      arcs.push(v);
      v = 0;
    }
  }
  return arcs.join('.');
}

/** readTime reads UTCTime or GeneralizedTime (the Z forms RFC 5280 allows). */
export function readTime(node: Node): Date {
  const s = node.value.toString('ascii');
  const m =
    node.tag === 0x17
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
      : node.tag === 0x18
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(s)
        : null;
  if (!m) throw new Error(`not an RFC 5280 time: ${JSON.stringify(s)}`);
  let year = Number(m[1]);
  if (node.tag === 0x17) year += year < 50 ? 2000 : 1900;
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])));
}

/** readString reads the directory string types found in names (Printable, UTF8, IA5, T61, BMP). */
export function readString(node: Node): string {
  switch (node.tag) {
    case 0x0c:
      return node.value.toString('utf8');
    case 0x13:
    case 0x16:
    case 0x14:
      return node.value.toString('latin1');
    case 0x1e:
      return Buffer.from(node.value).swap16().toString('utf16le');
    default:
      throw new Error(`unsupported string type 0x${node.tag.toString(16)}`);
  }
}
