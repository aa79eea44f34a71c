// Kubernetes resource quantities ("512Mi", "1.5G", "200m", "1e3"), as far as the static pods need them:
// checked when read from the config, and a memory limit's value in bytes for GOMEMLIMIT.
import { K8sConfigError } from './errors.js';

const SUFFIX: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?)$/;

/** quantityValue is the quantity rounded up to a whole number, as Quantity.Value(); a bad one is refused. */
export function quantityValue(q: string, what: string): number {
  const m = QUANTITY.exec(q.trim());
  if (!m) throw new K8sConfigError(`error parsing ${what}: quantities must match the regular expression`);
  const n = Number(m[1]) * (m[2] ? 10 ** Number(m[2].slice(1)) : SUFFIX[m[3] ?? '']!);
  return Math.ceil(n);
}
