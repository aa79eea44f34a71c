// ICU's common data inside a node executable: the dynamic symbol icudt*_dat (stripping keeps .dynsym),
// read whole, and a digest of it that tells one trim of the data from another.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { type ElfSymbol, findDynamicSymbols } from './elf.js';
import { ICU_DATA_SYMBOL, IcuDataError } from './icu-data.js';

/** readIcuData reads an executable's ICU data, or gives undefined for one built without it. */
export async function readIcuData(exe: string): Promise<{ symbol: ElfSymbol; data: Buffer } | undefined> {
  const [symbol, ...more] = await findDynamicSymbols(exe, ICU_DATA_SYMBOL);
  if (symbol === undefined) return undefined;
  if (more.length)
    throw new IcuDataError(
      exe,
      `more than one ICU data symbol (${[symbol, ...more].map((s) => s.name).join(', ')})`,
    );
  const fh = await open(exe, 'r');
  try {
    const data = Buffer.alloc(symbol.size);
    const { bytesRead } = await fh.read(data, 0, symbol.size, symbol.offset);
    if (bytesRead !== symbol.size)
      throw new IcuDataError(exe, `${symbol.name} runs past the end of the file`);
    return { symbol, data };
  } finally {
    await fh.close();
  }
}

/** icuDataDigest: the first 16 hex digits of the ICU data's SHA-256, or "none" for an executable without. */
export async function icuDataDigest(exe: string): Promise<string> {
  const icu = await readIcuData(exe);
  return icu ? createHash('sha256').update(icu.data).digest('hex').slice(0, 16) : 'none';
}
