// Deterministic GUIDs from a label, as upstream makes them for reproducible disk images (its installer in
// image mode): a version 8 UUID whose bytes are the first 16 of SHA-256 over the nil UUID's 16 zero bytes
// followed by the label's UTF-8, with the version nibble set to 8 and the variant bits to 10 (RFC 9562).
// The disk GUID of an image comes from DISK_IMAGE_LABEL, each partition's from its own label.
import { createHash } from 'node:crypto';
import { type Guid, guidFromTextBytes } from './guid.js';

/** DISK_IMAGE_LABEL is the label upstream derives a disk image's disk GUID from. */
export const DISK_IMAGE_LABEL = 'talos-image-disk';

/** guidFromLabel derives the GUID upstream gives `label`; the same label always gives the same GUID. */
export function guidFromLabel(label: string): Guid {
  const h = createHash('sha256').update(Buffer.alloc(16)).update(label, 'utf8').digest().subarray(0, 16);
  h[6] = (h[6]! & 0x0f) | 0x80;
  h[8] = (h[8]! & 0x3f) | 0x80;
  return guidFromTextBytes(h);
}
