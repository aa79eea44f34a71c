// Kubernetes label, annotation and taint syntax, with upstream's messages and Talos' reserved annotations.
import type { RuleContext } from './context.js';

const dns1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const qualified = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const q = JSON.stringify;

/** annotations Talos writes itself to remember what it owns on the node */
export const reservedAnnotations = [
  'talos.dev/owned-annotations',
  'talos.dev/owned-labels',
  'talos.dev/owned-taints',
];
/** upper bound on the sum of annotation key and value lengths, as the API server enforces */
export const annotationSizeLimit = 256 * 1024;

/** qualifiedNameProblem checks `[prefix/]name`: a DNS-1123 prefix of ≤253 and a name of ≤63 characters. */
export function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return `invalid format: too many slashes: ${q(key)}`;
  const name = parts.at(-1)!;
  if (parts.length === 2) {
    const prefix = parts[0]!;
    if (prefix === '') return `prefix cannot be empty: ${q(key)}`;
    if (prefix.length > 253)
      return `prefix ${q(prefix)} is invalid: domain name length exceeds limit of 253: ${q(prefix)}`;
    if (!dns1123.test(prefix))
      return `prefix ${q(prefix)} is invalid: domain doesn't match required format: ${q(prefix)}`;
  }
  if (name === '') return `name cannot be empty: ${q(key)}`;
  if (name.length > 63) return `name is too long: ${q(key)} (limit is 63)`;
  if (!qualified.test(name)) return `name ${q(name)} is invalid`;
  return undefined;
}

export function labelValueProblem(v: string): string | undefined {
  if (v.length > 63) return `label value length exceeds limit of 63: ${q(v)}`;
  if (v !== '' && !qualified.test(v)) return `label value ${q(v)} is invalid`;
  return undefined;
}

const sorted = (m: Record<string, string>) => Object.keys(m).sort();

export function validateLabels(labels: Record<string, string>, at: string, ctx: RuleContext): void {
  for (const k of sorted(labels)) {
    const problem = qualifiedNameProblem(k) ?? labelValueProblem(labels[k]!);
    if (problem) ctx.error(`${at}.${k}`, `invalid machine node labels: ${problem}`);
  }
}

export function validateAnnotations(annotations: Record<string, string>, at: string, ctx: RuleContext): void {
  let size = 0;
  for (const k of sorted(annotations)) {
    const problem = qualifiedNameProblem(k);
    if (problem) ctx.error(`${at}.${k}`, `invalid machine node annotations: ${problem}`);
    if (reservedAnnotations.includes(k))
      ctx.error(`${at}.${k}`, `invalid machine node annotations: annotation ${q(k)} is reserved`);
    size += k.length + annotations[k]!.length;
  }
  if (size > annotationSizeLimit)
    ctx.error(
      at,
      `invalid machine node annotations: total annotation size exceeds limit of ${annotationSizeLimit} bytes`,
    );
}

const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaints checks `key: [value:]Effect` entries; the first colon splits value from effect. */
export function validateTaints(taints: Record<string, string>, at: string, ctx: RuleContext): void {
  for (const k of sorted(taints)) {
    const fail = (msg: string) => ctx.error(`${at}.${k}`, `invalid machine node taints: ${msg}`);
    const keyProblem = qualifiedNameProblem(k);
    if (keyProblem) {
      fail(keyProblem);
      continue;
    }
    const v = taints[k]!;
    const cut = v.indexOf(':');
    const effect = cut < 0 ? v : v.slice(cut + 1);
    if (!effects.includes(effect)) {
      fail(`invalid taint effect: ${q(effect)}`);
      continue;
    }
    const valueProblem = cut < 0 ? undefined : labelValueProblem(v.slice(0, cut));
    if (valueProblem) fail(valueProblem);
  }
}
