// Rules for volume provisioning: a disk selector expression and sane min/max sizes.
import type { ProvisioningSpec } from '../types/common.js';
import type { RuleContext } from './context.js';
import { parseSize } from './formats.js';

export function validateProvisioning(p: ProvisioningSpec, at: string, ctx: RuleContext): void {
  const size = (k: 'minSize' | 'maxSize') => {
    const v = p[k];
    if (v === undefined) return undefined;
    const pct = /^(\d{1,3})%$/.exec(v);
    if (pct) {
      if (Number(pct[1]) > 100) ctx.error(`${at}.${k}`, `percentage ${v} is over 100%`);
      return undefined;
    }
    const n = parseSize(v);
    if (n === undefined) ctx.error(`${at}.${k}`, `invalid size ${JSON.stringify(v)}`);
    return n;
  };
  const min = size('minSize');
  const max = size('maxSize');
  if (min !== undefined && max !== undefined && min > max)
    ctx.error(`${at}.minSize`, 'minSize is greater than maxSize');
  if (p.diskSelector && !p.diskSelector.match?.trim())
    ctx.error(`${at}.diskSelector.match`, 'disk selector expression must not be empty');
}
