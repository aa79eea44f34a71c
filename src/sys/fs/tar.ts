// A small tar writer (POSIX ustar, with PAX records for names, link targets or sizes ustar cannot hold):
// headers and padding only, so file data can be streamed between them.

export type TarEntryType = 'file' | 'directory' | 'symlink' | 'char' | 'block' | 'fifo';

export interface TarEntry {
  /** relative path; directories end in '/' */
  readonly name: string;
  readonly type: TarEntryType;
  /** permission and set-id/sticky bits (07777) */
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  /** bytes of data that follow; 0 for everything but files */
  readonly size: number;
  /** unix seconds */
  readonly mtime: number;
  readonly linkname?: string;
  readonly devmajor?: number;
  readonly devminor?: number;
}

const BLOCK = 512;
const TYPEFLAG: Readonly<Record<TarEntryType, string>> = {
  file: '0',
  symlink: '2',
  char: '3',
  block: '4',
  directory: '5',
  fifo: '6',
};

/** The end of an archive: two zero blocks. */
export const TAR_END: Buffer = Buffer.alloc(2 * BLOCK);

/** tarPadding is the zeros that round `size` bytes of data up to a whole block. */
export const tarPadding = (size: number): Buffer => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** fitsOctal: whether `n` fits in a field of `width` bytes as octal digits plus a NUL. */
const fitsOctal = (n: number, width: number) => n >= 0 && n < 8 ** (width - 1);

function putString(buf: Buffer, offset: number, width: number, s: string): void {
  buf.write(s, offset, Math.min(width, Buffer.byteLength(s)), 'utf8');
}

function putOctal(buf: Buffer, offset: number, width: number, n: number): void {
  const v = fitsOctal(n, width) ? n : 0; // the PAX record carries what does not fit
  putString(buf, offset, width - 1, v.toString(8).padStart(width - 1, '0'));
}

/** paxRecord is "<len> key=value\n", where len counts the whole record including its own digits. */
export function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLen = Buffer.byteLength(body);
  let len = bodyLen + 1;
  while (String(len).length + bodyLen !== len) len = String(len).length + bodyLen; // settles in ≤ 2 rounds
  return `${len}${body}`;
}

/** ustarHeader encodes one 512-byte header block. */
function ustarHeader(e: TarEntry, typeflag: string): Buffer {
  const h = Buffer.alloc(BLOCK);
  putString(h, 0, 100, e.name);
  putOctal(h, 100, 8, e.mode & 0o7777);
  putOctal(h, 108, 8, e.uid);
  putOctal(h, 116, 8, e.gid);
  putOctal(h, 124, 12, e.size);
  putOctal(h, 136, 12, Math.max(0, Math.floor(e.mtime)));
  h.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  putString(h, 156, 1, typeflag);
  putString(h, 157, 100, e.linkname ?? '');
  putString(h, 257, 6, 'ustar');
  putString(h, 263, 2, '00');
  putOctal(h, 329, 8, e.devmajor ?? 0);
  putOctal(h, 337, 8, e.devminor ?? 0);
  let sum = 0;
  for (const b of h) sum += b;
  putString(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/**
 * tarHeader returns the header blocks of one entry: a PAX extended header first when the name, link target,
 * ids or size do not fit ustar's fields, then the ustar header.
 */
export function tarHeader(e: TarEntry): Buffer {
  const pax: string[] = [];
  if (Buffer.byteLength(e.name) > 100) pax.push(paxRecord('path', e.name));
  if (e.linkname && Buffer.byteLength(e.linkname) > 100) pax.push(paxRecord('linkpath', e.linkname));
  if (!fitsOctal(e.size, 12)) pax.push(paxRecord('size', String(e.size)));
  if (!fitsOctal(e.uid, 8)) pax.push(paxRecord('uid', String(e.uid)));
  if (!fitsOctal(e.gid, 8)) pax.push(paxRecord('gid', String(e.gid)));
  const main = ustarHeader(e, TYPEFLAG[e.type]);
  if (pax.length === 0) return main;
  const data = Buffer.from(pax.join(''), 'utf8');
  const paxName = `PaxHeaders.0/${e.name.replace(/\/$/, '').split('/').pop() ?? ''}`.slice(0, 100);
  const head = ustarHeader(
    { name: paxName, type: 'file', mode: 0o644, uid: 0, gid: 0, size: data.length, mtime: e.mtime },
    'x',
  );
  return Buffer.concat([head, data, tarPadding(data.length), main]);
}
