// GUIDs as GPT stores them: the text form is uppercase 8-4-4-4-12 hex, as sgdisk prints it; on disk the
// first three groups are little-endian and the last two are kept in text order ("mixed-endian").
import { randomUUID } from 'node:crypto';
import { GptError } from './errors.js';

/** Guid is the canonical text form: uppercase, hyphenated. */
export type Guid = string;

export const NIL_GUID: Guid = '00000000-0000-0000-0000-000000000000';

const GUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** parseGuid checks and normalises a GUID's text; `what` names it in the error ("partition 2 type"). */
export function parseGuid(text: string, what = 'GUID'): Guid {
  if (!GUID_TEXT.test(text))
    throw new GptError(
      'invalid-guid',
      `${what}: ${JSON.stringify(text)} is not a GUID (want 8-4-4-4-12 hex digits)`,
    );
  return text.toUpperCase();
}

/** guidToBytes lays a GUID out as it sits on disk (16 bytes). */
export function guidToBytes(guid: Guid): Buffer {
  const hex = parseGuid(guid).replaceAll('-', '');
  const text = Buffer.from(hex, 'hex');
  const out = Buffer.from(text);
  // time_low, time_mid, time_hi are stored little-endian; clock_seq and node are not swapped
  out.writeUInt32LE(text.readUInt32BE(0), 0);
  out.writeUInt16LE(text.readUInt16BE(4), 4);
  out.writeUInt16LE(text.readUInt16BE(6), 6);
  return out;
}

/** guidFromBytes reads an on-disk GUID at `offset`. */
export function guidFromBytes(b: Uint8Array, offset = 0): Guid {
  const src = Buffer.from(b.buffer, b.byteOffset + offset, 16);
  const text = Buffer.alloc(16);
  text.writeUInt32BE(src.readUInt32LE(0), 0);
  text.writeUInt16BE(src.readUInt16LE(4), 4);
  text.writeUInt16BE(src.readUInt16LE(6), 6);
  src.copy(text, 8, 8, 16);
  return guidFromTextBytes(text);
}

/** guidFromTextBytes formats 16 bytes taken in text order (RFC 9562's byte order, no swapping). */
export function guidFromTextBytes(b: Uint8Array): Guid {
  const h = Buffer.from(b.buffer, b.byteOffset, 16).toString('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const isNilGuid = (g: Guid): boolean => g === NIL_GUID;

/** randomGuid is a version 4 GUID, the kind sgdisk and upstream make when none is given. */
export const randomGuid = (): Guid => randomUUID().toUpperCase();
