// Shared harness for the per-rule tables: patch a generated config, validate it, find the error by path.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { decode } from '../../../src/config/decoder/index.js';
import { encode } from '../../../src/config/encoder.js';
import type { ConfigError } from '../../../src/config/errors.js';
import { type Mode, validate } from '../../../src/config/validate/index.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/${name}.yaml.txt`, import.meta.url), 'utf8');
const bases = { worker: fixture('worker'), controlplane: fixture('controlplane') };

/** A patch is merged into the v1alpha1 document (objects merge, everything else replaces). */
export type Patch = Record<string, unknown>;

export interface RuleCase {
  readonly rule: string;
  readonly valid: Patch;
  readonly invalid: Patch;
  /** the field path the error must name */
  readonly path: string;
  /** a fragment of the error message */
  readonly error: string;
  readonly role?: keyof typeof bases;
  readonly mode?: Mode;
  /** typed documents appended to the stream, for rules about them */
  readonly extra?: { readonly valid: string; readonly invalid: string };
}

function mergeInto(target: Record<string, unknown>, patch: Patch): void {
  for (const [k, v] of Object.entries(patch)) {
    const cur = target[k];
    if (isObject(v) && isObject(cur)) mergeInto(cur, v);
    else target[k] = structuredClone(v);
  }
}
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** configText renders the patched config as YAML, so errors carry real line numbers. */
export function configText(role: keyof typeof bases, patch: Patch, extra = ''): string {
  const cfg = decode(bases[role]);
  const v1 = cfg.documents.find((d) => d.kind === 'v1alpha1')!;
  mergeInto(v1.spec as Record<string, unknown>, patch);
  return `${encode(cfg)}${extra ? `---\n${extra}` : ''}`;
}

export function errorsFor(text: string, mode: Mode = 'metal'): readonly ConfigError[] {
  return validate(decode(text), { mode }).errors;
}

/** ruleTable declares one valid and one invalid sample per rule. */
export function ruleTable(cases: readonly RuleCase[]): void {
  it.each(cases)('$rule: accepts the valid sample', (c) => {
    const errors = errorsFor(configText(c.role ?? 'worker', c.valid, c.extra?.valid), c.mode);
    expect(errors.map((e) => e.message)).toEqual([]);
  });
  it.each(cases)('$rule: rejects the invalid sample at its path and line', (c) => {
    const errors = errorsFor(configText(c.role ?? 'worker', c.invalid, c.extra?.invalid), c.mode);
    const hit = errors.find((e) => e.path === c.path && e.detail.includes(c.error));
    expect(hit, `errors were:\n${errors.map((e) => e.message).join('\n')}`).toBeDefined();
    expect(hit!.line).toBeGreaterThan(0);
  });
}
