// Install disk selector rules: the size expression (`>= 100GB`), the disk type and unsupported keys.
import type { InstallDiskSelector } from '../types/v1alpha1/machine.js';
import type { RuleContext } from './context.js';
import { parseSize } from './formats.js';

export const diskTypes = ['ssd', 'hdd', 'nvme', 'sd'];

export interface SizeMatch {
  readonly op: '==' | '>=' | '<=' | '>' | '<';
  readonly bytes: number;
}

/** parseSizeMatch reads `[op]<size>[unit]`; a bare size means equality, as upstream. */
export function parseSizeMatch(expr: string): SizeMatch | string {
  const m = /^(>=|<=|==|>|<)?\s*(.*)$/s.exec(expr.trim())!;
  const bytes = parseSize(m[2]!.trim());
  if (bytes === undefined || !Number.isFinite(bytes))
    return `failed to parse disk size ${m[2]}: expected [>=|<=|>|<|==]<size>[units]`;
  return { op: (m[1] as SizeMatch['op'] | undefined) ?? '==', bytes };
}

/** validateDiskSelector checks `machine.install.diskSelector`. */
export function validateDiskSelector(s: InstallDiskSelector, at: string, ctx: RuleContext): void {
  // upstream parses the size while decoding, so a bad one fails in every mode
  if (s.size !== undefined) {
    const m = parseSizeMatch(s.size);
    if (typeof m === 'string') ctx.error(`${at}.size`, m);
  }
  // the other checks happen when the selector becomes a match expression, which only an install does
  if (ctx.mode !== 'metal') return;
  if (s.name) ctx.error(`${at}.name`, 'install disk selector is invalid: selector on name is not supported');
  if (s.type && !diskTypes.includes(s.type))
    ctx.error(
      `${at}.type`,
      `install disk selector is invalid: unsupported disk type ${JSON.stringify(s.type)}`,
    );
}
