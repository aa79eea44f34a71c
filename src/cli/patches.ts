// Reads `--config-patch` values: `@file`, a bare file name, or the patch text itself.
import { existsSync } from 'node:fs';
import { loadPatch, type Patch } from '../config/index.js';
import { readInput } from './io.js';

/** patchText resolves one flag value; like talosctl, a token with no whitespace that names a file is a file. */
export function patchText(value: string): string {
  if (value.startsWith('@')) return readInput(value.slice(1), 'patch');
  if (!/\s/.test(value) && existsSync(value)) return readInput(value, 'patch');
  return value;
}

export const loadPatches = (values: readonly string[]): Patch[] => values.map((v) => loadPatch(patchText(v)));
