// "all nodes memory sizes" and "all nodes disk sizes": upstream's AllNodesMemorySizes and
// AllNodesDiskSizes, with its minimums (pkg/minimal, imager quirks). Container nodes are not checked.
import { iBytes, multiError } from '../go-format.js';
import type { EphemeralFact } from '../node-facts.js';
import { compareStrings } from './order.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** minimumMemory is minimal.Memory's minimum: what the role needs, less 150 MiB the kernel keeps. */
export const minimumMemory = (role: 'controlplane' | 'worker'): number =>
  role === 'controlplane' ? 1848 * MiB - 150 * MiB : GiB - 150 * MiB;

/**
 * MINIMUM_EPHEMERAL is upstream's smallest EPHEMERAL: its 6 GiB minimal disk less its UKI EFI partition
 * (100 MiB EFI + 1 MiB BIOS + 2000 MiB BOOT), STATE (100 MiB), META (1 MiB) and 10 MiB of GPT overhead.
 */
export const MINIMUM_EPHEMERAL = 6 * GiB - (2101 * MiB + 100 * MiB + MiB + 10 * MiB);

export interface MemoryFact {
  readonly node: string;
  readonly role: 'controlplane' | 'worker';
  readonly memTotalKiB: number;
}

/** memorySizes names every node below its role's minimum, sizes in whole MiB as upstream prints them. */
export function memorySizes(facts: readonly MemoryFact[]): string | undefined {
  const errors: string[] = [];
  for (const f of facts) {
    const min = minimumMemory(f.role);
    const total = f.memTotalKiB * 1024;
    if (total < min)
      errors.push(
        `node ${JSON.stringify(f.node)} does not meet memory requirements: expected at least ${Math.floor(min / MiB)} MiB, actual ${Math.floor(total / MiB)} MiB`,
      );
  }
  return multiError(errors);
}

/** DiskFact is one node's EPHEMERAL, or why it could not be read. */
export type DiskFact =
  | { readonly node: string; readonly kind: 'read'; readonly volume: EphemeralFact }
  | { readonly node: string; readonly kind: 'failed'; readonly error: string };

/** diskSizes names every node whose EPHEMERAL is below the minimum, or could not be read, by node order. */
export function diskSizes(facts: readonly DiskFact[]): string | undefined {
  const errors: string[] = [];
  for (const f of [...facts].sort((a, b) => compareStrings(a.node, b.node))) {
    const node = JSON.stringify(f.node);
    if (f.kind === 'failed') errors.push(`error getting volume status for node ${node}: ${f.error}`);
    else if (f.volume.size < MINIMUM_EPHEMERAL)
      errors.push(
        `ephemeral partition ${JSON.stringify(f.volume.location)} for node ${node} is too small, expected at least ${iBytes(MINIMUM_EPHEMERAL)}, actual ${iBytes(f.volume.size)}`,
      );
  }
  return multiError(errors);
}
