// A reader of the ustar archives the OCI writer makes (short names only), for the tests to look inside.

export interface TarEntryRead {
  name: string;
  type: string;
  mode: number;
  uid: number;
  mtime: number;
  linkname: string;
  data: Buffer;
}

/** readTar reads a ustar archive of short names (all these archives hold) */
export function readTar(tar: Buffer): TarEntryRead[] {
  const out: TarEntryRead[] = [];
  for (let off = 0; off + 512 <= tar.length; ) {
    const h = tar.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const str = (o: number, n: number) => h.toString('utf8', o, o + n).replace(/\0.*$/s, '');
    const oct = (o: number, n: number) => Number.parseInt(str(o, n).trim() || '0', 8);
    const size = oct(124, 12);
    out.push({
      name: str(0, 100),
      type: str(156, 1),
      mode: oct(100, 8),
      uid: oct(108, 8),
      mtime: oct(136, 12),
      linkname: str(157, 100),
      data: tar.subarray(off + 512, off + 512 + size),
    });
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
