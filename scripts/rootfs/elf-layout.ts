// Where an ELF64 executable's loaded bytes sit in its file (PT_LOAD segments) and which build it is (the
// GNU build id note), read with positional reads like elf.ts: enough to turn the virtual addresses a trace
// saw into file offsets of another copy of the same program (a stripped one, or a single executable
// with a blob added), whose segments keep their addresses but not always their offsets.
import { open } from 'node:fs/promises';
import { elfHeader, exactReader } from './elf.js';

export interface LoadSegment {
  readonly vaddr: number;
  readonly offset: number;
  /** bytes of the segment in the file (its memory size may be larger: .bss has no file bytes) */
  readonly filesz: number;
}

export interface ElfLayout {
  /** NT_GNU_BUILD_ID as lowercase hex, when the file has one */
  readonly buildId?: string;
  readonly loads: readonly LoadSegment[];
}

const PT_LOAD = 1;
const PT_NOTE = 4;
const NT_GNU_BUILD_ID = 3;

/** readElfLayout reads the loadable segments and the build id of a 64-bit little-endian ELF file. */
export async function readElfLayout(file: string): Promise<ElfLayout> {
  const fh = await open(file, 'r');
  try {
    const at = exactReader(fh, file);
    const eh = await elfHeader(at, file);
    const phoff = Number(eh.readBigUInt64LE(0x20));
    const phentsize = eh.readUInt16LE(0x36);
    const phnum = eh.readUInt16LE(0x38);
    const ph = phnum ? await at(phoff, phentsize * phnum) : Buffer.alloc(0);
    const loads: LoadSegment[] = [];
    let buildId: string | undefined;
    for (let i = 0; i < phnum; i++) {
      const p = i * phentsize;
      const type = ph.readUInt32LE(p);
      const offset = Number(ph.readBigUInt64LE(p + 8));
      const vaddr = Number(ph.readBigUInt64LE(p + 16));
      const filesz = Number(ph.readBigUInt64LE(p + 32));
      if (type === PT_LOAD && filesz > 0) loads.push({ vaddr, offset, filesz });
      else if (type === PT_NOTE && buildId === undefined) buildId = gnuBuildId(await at(offset, filesz));
    }
    return buildId === undefined ? { loads } : { buildId, loads };
  } finally {
    await fh.close();
  }
}

/** gnuBuildId finds NT_GNU_BUILD_ID of owner "GNU" among the notes of one PT_NOTE segment. */
function gnuBuildId(notes: Buffer): string | undefined {
  const align4 = (n: number) => (n + 3) & ~3;
  for (let p = 0; p + 12 <= notes.length; ) {
    const namesz = notes.readUInt32LE(p);
    const descsz = notes.readUInt32LE(p + 4);
    const type = notes.readUInt32LE(p + 8);
    const name = p + 12;
    const desc = name + align4(namesz);
    if (desc + descsz > notes.length) return undefined;
    if (type === NT_GNU_BUILD_ID && notes.toString('latin1', name, name + namesz) === 'GNU\0')
      return notes.toString('hex', desc, desc + descsz);
    p = desc + align4(descsz);
  }
  return undefined;
}

/** vaddrOf maps a file offset back to the virtual address its byte is loaded at, if a segment loads it. */
export function vaddrOf(loads: readonly LoadSegment[], offset: number): number | undefined {
  const s = loads.find((l) => offset >= l.offset && offset < l.offset + l.filesz);
  return s === undefined ? undefined : s.vaddr + (offset - s.offset);
}
