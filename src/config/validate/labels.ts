// Kubernetes label, annotation and taint syntax (k8s.io/apimachinery validation rules).
import type { RuleContext } from './context.js';
import { isDNSName } from './formats.js';

const name = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;

/** isQualifiedName checks `[prefix/]name`: a DNS prefix of ≤253 and a name of ≤63 characters. */
export function isQualifiedName(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const n = parts.at(-1)!;
  if (!name.test(n)) return false;
  return parts.length === 1 || isDNSName(parts[0]!);
}

export const isLabelValue = (v: string): boolean => v === '' || name.test(v);

export function validateLabels(
  labels: Record<string, string>,
  at: string,
  ctx: RuleContext,
  opts: { values: boolean } = { values: true },
): void {
  for (const [k, v] of Object.entries(labels)) {
    if (!isQualifiedName(k)) ctx.error(`${at}.${k}`, `invalid label key ${JSON.stringify(k)}`);
    else if (opts.values && !isLabelValue(v))
      ctx.error(`${at}.${k}`, `invalid label value ${JSON.stringify(v)}`);
  }
}

const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaints checks `key: [value:]Effect` entries as upstream's nodeTaints. */
export function validateTaints(taints: Record<string, string>, at: string, ctx: RuleContext): void {
  for (const [k, v] of Object.entries(taints)) {
    if (!isQualifiedName(k)) {
      ctx.error(`${at}.${k}`, `invalid taint key ${JSON.stringify(k)}`);
      continue;
    }
    const cut = v.lastIndexOf(':');
    const value = cut < 0 ? '' : v.slice(0, cut);
    const effect = cut < 0 ? v : v.slice(cut + 1);
    if (!effects.includes(effect))
      ctx.error(
        `${at}.${k}`,
        `invalid taint effect ${JSON.stringify(effect)}, expected NoSchedule, PreferNoSchedule or NoExecute`,
      );
    else if (!isLabelValue(value)) ctx.error(`${at}.${k}`, `invalid taint value ${JSON.stringify(value)}`);
  }
}
