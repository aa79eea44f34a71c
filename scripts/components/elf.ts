// ELF section names, read from the section headers: enough to tell a stripped binary (no .symtab).
import { open } from 'node:fs/promises';
import { exactReader } from '../rootfs/elf.js';

/** sectionNames lists the sections of a 64-bit little-endian ELF file, in header order. */
export async function sectionNames(file: string): Promise<string[]> {
  const fh = await open(file, 'r');
  try {
    const at = exactReader(fh, file);
    const eh = await at(0, 64);
    if (eh.readUInt32BE(0) !== 0x7f454c46) throw new Error(`${file}: not an ELF file`);
    if (eh[4] !== 2 || eh[5] !== 1) throw new Error(`${file}: only 64-bit little-endian ELF is supported`);
    const shoff = Number(eh.readBigUInt64LE(0x28));
    const shentsize = eh.readUInt16LE(0x3a);
    const shnum = eh.readUInt16LE(0x3c);
    const shstrndx = eh.readUInt16LE(0x3e);
    if (shnum === 0) return [];
    const sh = await at(shoff, shentsize * shnum);
    // sh_name is an offset into the section-name string table, itself section shstrndx
    const names = sh.subarray(shstrndx * shentsize);
    const strtab = await at(Number(names.readBigUInt64LE(0x18)), Number(names.readBigUInt64LE(0x20)));
    const out: string[] = [];
    for (let i = 0; i < shnum; i++) {
      const off = sh.readUInt32LE(i * shentsize);
      out.push(strtab.toString('latin1', off, strtab.indexOf(0, off)));
    }
    return out;
  } finally {
    await fh.close();
  }
}
