// ELF64 dynamic-linking facts (interpreter, DT_NEEDED, run paths) and dynamic symbols, read with
// positional reads so the ~100 MB node executable is never loaded whole. Only x86-64 little-endian is
// supported.
import { type FileHandle, open } from 'node:fs/promises';

/** exactReader reads `len` bytes at `pos` of an open ELF file, or fails naming the file as truncated. */
export const exactReader =
  (fh: FileHandle, file: string) =>
  async (pos: number, len: number): Promise<Buffer> => {
    const buf = Buffer.alloc(len);
    const { bytesRead } = await fh.read(buf, 0, len, pos);
    if (bytesRead !== len) throw new Error(`${file}: truncated ELF (wanted ${len} bytes at ${pos})`);
    return buf;
  };

export interface ElfDeps {
  interpreter?: string;
  needed: string[];
  /** DT_RUNPATH, or DT_RPATH when no RUNPATH is present (ld.so ignores RPATH then). */
  searchPath: string[];
}

const PT_LOAD = 1;
const PT_DYNAMIC = 2;
const PT_INTERP = 3;
const DT_NEEDED = 1n;
const DT_STRTAB = 5n;
const DT_STRSZ = 10n;
const DT_RPATH = 15n;
const DT_RUNPATH = 29n;

/** readElfDeps returns the dynamic-linking facts of an ELF file, or null if the file is not ELF. */
export async function readElfDeps(file: string): Promise<ElfDeps | null> {
  const fh = await open(file, 'r');
  try {
    const at = exactReader(fh, file);
    const { size } = await fh.stat();
    if (size < 64) return null;
    const eh = await at(0, 64);
    if (eh.readUInt32BE(0) !== 0x7f454c46) return null;
    if (eh[4] !== 2 || eh[5] !== 1) throw new Error(`${file}: only 64-bit little-endian ELF is supported`);
    const phoff = Number(eh.readBigUInt64LE(0x20));
    const phentsize = eh.readUInt16LE(0x36);
    const phnum = eh.readUInt16LE(0x38);
    const ph = phnum ? await at(phoff, phentsize * phnum) : Buffer.alloc(0);

    const loads: { vaddr: bigint; offset: bigint; filesz: bigint }[] = [];
    let interpreter: string | undefined;
    let dynamic: { offset: number; size: number } | undefined;
    for (let i = 0; i < phnum; i++) {
      const p = i * phentsize;
      const type = ph.readUInt32LE(p);
      const offset = ph.readBigUInt64LE(p + 8);
      const vaddr = ph.readBigUInt64LE(p + 16);
      const filesz = ph.readBigUInt64LE(p + 32);
      if (type === PT_LOAD) loads.push({ vaddr, offset, filesz });
      else if (type === PT_INTERP) interpreter = cstr(await at(Number(offset), Number(filesz)), 0);
      else if (type === PT_DYNAMIC) dynamic = { offset: Number(offset), size: Number(filesz) };
    }
    if (!dynamic) return { interpreter, needed: [], searchPath: [] };

    const dyn = await at(dynamic.offset, dynamic.size);
    const entries: [bigint, bigint][] = [];
    for (let p = 0; p + 16 <= dyn.length; p += 16) {
      const tag = dyn.readBigInt64LE(p);
      if (tag === 0n) break;
      entries.push([tag, dyn.readBigUInt64LE(p + 8)]);
    }
    const strtabVaddr = entries.find(([t]) => t === DT_STRTAB)?.[1];
    const strsz = entries.find(([t]) => t === DT_STRSZ)?.[1];
    if (strtabVaddr === undefined || strsz === undefined)
      throw new Error(`${file}: dynamic section has no string table`);
    // DT_STRTAB holds a virtual address: map it back to a file offset through its PT_LOAD segment.
    const seg = loads.find((l) => strtabVaddr >= l.vaddr && strtabVaddr < l.vaddr + l.filesz);
    if (!seg) throw new Error(`${file}: string table lies outside every loadable segment`);
    const strtab = await at(Number(strtabVaddr - seg.vaddr + seg.offset), Number(strsz));
    const strings = (tag: bigint) =>
      entries.filter(([t]) => t === tag).map(([, v]) => cstr(strtab, Number(v)));

    const runpath = strings(DT_RUNPATH);
    const paths = runpath.length ? runpath : strings(DT_RPATH);
    return {
      interpreter,
      needed: strings(DT_NEEDED),
      searchPath: paths.flatMap((p) => p.split(':')).filter(Boolean),
    };
  } finally {
    await fh.close();
  }
}

/** elfHeader reads the 64-byte file header, refusing anything but a 64-bit little-endian ELF file. */
export async function elfHeader(at: ReturnType<typeof exactReader>, file: string): Promise<Buffer> {
  const eh = await at(0, 64);
  if (eh.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${file}: not an ELF file`);
  if (eh[4] !== 2 || eh[5] !== 1) throw new Error(`${file}: only 64-bit little-endian ELF is supported`);
  return eh;
}

function cstr(buf: Buffer, start: number): string {
  const end = buf.indexOf(0, start);
  return buf.toString('latin1', start, end < 0 ? buf.length : end);
}

/** ElfSymbol is a dynamic symbol located in the file: where its bytes are, not where they are mapped. */
export interface ElfSymbol {
  readonly name: string;
  /** file offset of the symbol's first byte */
  readonly offset: number;
  readonly size: number;
}

const SHT_DYNSYM = 11;
const SHT_NOBITS = 8;
const SYM_SIZE = 24;

/**
 * findDynamicSymbols lists the dynamic symbols whose names match and whose bytes are in the file (a
 * stripped executable keeps .dynsym); symbols of sections with no file bytes (.bss) are left out.
 */
export async function findDynamicSymbols(file: string, match: RegExp): Promise<ElfSymbol[]> {
  const fh = await open(file, 'r');
  try {
    const at = exactReader(fh, file);
    const eh = await elfHeader(at, file);
    const shoff = Number(eh.readBigUInt64LE(0x28));
    const shentsize = eh.readUInt16LE(0x3a);
    const shnum = eh.readUInt16LE(0x3c);
    const sh = shnum ? await at(shoff, shentsize * shnum) : Buffer.alloc(0);
    const section = (i: number) => {
      const p = i * shentsize;
      return {
        type: sh.readUInt32LE(p + 4),
        addr: sh.readBigUInt64LE(p + 16),
        offset: Number(sh.readBigUInt64LE(p + 24)),
        size: Number(sh.readBigUInt64LE(p + 32)),
        link: sh.readUInt32LE(p + 40),
      };
    };
    const out: ElfSymbol[] = [];
    for (let i = 0; i < shnum; i++) {
      const symtab = section(i);
      if (symtab.type !== SHT_DYNSYM) continue;
      if (symtab.link >= shnum)
        throw new Error(`${file}: .dynsym links to section ${symtab.link}, which is missing`);
      const strings = section(symtab.link);
      const syms = await at(symtab.offset, symtab.size);
      const strtab = await at(strings.offset, strings.size);
      for (let p = 0; p + SYM_SIZE <= syms.length; p += SYM_SIZE) {
        const name = cstr(strtab, syms.readUInt32LE(p));
        if (!match.test(name)) continue;
        const shndx = syms.readUInt16LE(p + 6);
        // undefined (0) and the reserved indices (absolute, common, …) have no bytes in the file
        if (shndx === 0 || shndx >= shnum) continue;
        const home = section(shndx);
        if (home.type === SHT_NOBITS) continue;
        const value = syms.readBigUInt64LE(p + 8);
        out.push({
          name,
          offset: Number(value - home.addr) + home.offset,
          size: Number(syms.readBigUInt64LE(p + 16)),
        });
      }
    }
    return out;
  } finally {
    await fh.close();
  }
}
