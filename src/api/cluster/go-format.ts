// How upstream's health checks word their findings, in Go's formatting: `%q` and `%v` of string lists,
// hashicorp/go-multierror's list, go-humanize's IEC sizes. talosctl prints these texts as they are, so
// Keel's must read the same.
import { humanateBytes } from '../../../resources/block/pretty-size.js';

/** quoteList is Go's `%q` of a []string (or of addresses, which print as strings): `["a" "b"]`. */
export const quoteList = (items: readonly string[]): string =>
  `[${items.map((s) => JSON.stringify(s)).join(' ')}]`;

/** plainList is Go's `%v` of a []string: `[a b]`. */
export const plainList = (items: readonly string[]): string => `[${items.join(' ')}]`;

/**
 * multiError is a go-multierror's Error(): the count, then one bullet per error, and a blank line (which
 * the reporter's TrimSpace drops at the end of a line). Undefined for no errors, as ErrorOrNil.
 */
export function multiError(errors: readonly string[]): string | undefined {
  if (errors.length === 0) return undefined;
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]}\n\n`;
  return `${errors.length} errors occurred:\n\t${errors.map((e) => `* ${e}`).join('\n\t')}\n\n`;
}

const IEC = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** iBytes is humanize.IBytes: 1024-based units, one decimal below 10 (`3.8 GiB`, `512 MiB`). */
export function iBytes(bytes: number): string {
  return humanateBytes(bytes, 1024, IEC);
}

/** DEADLINE is context.DeadlineExceeded's text: what an attempt (or the whole wait) cut short says. */
export const DEADLINE = 'context deadline exceeded';
