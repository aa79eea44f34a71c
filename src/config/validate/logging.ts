// `machine.logging` rules: each destination needs a tcp:// or udp:// endpoint with a host, and a known format.
import type { LoggingDestination } from '../types/v1alpha1/machine.js';
import type { RuleContext } from './context.js';

export const loggingFormats = ['json_lines'];
const schemes = ['tcp', 'udp'];

export function validateLogging(
  destinations: readonly LoggingDestination[],
  at: string,
  ctx: RuleContext,
): void {
  destinations.forEach((d, i) => {
    const p = `${at}[${i}]`;
    if (!d.endpoint) ctx.error(`${p}.endpoint`, 'empty logging endpoint');
    else {
      const m = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?/.exec(d.endpoint);
      const host = (m?.[2] ?? '').replace(/^.*@/, '').replace(/:\d*$/, '');
      if (host === '') ctx.error(`${p}.endpoint`, "empty logging endpoint's host");
      const scheme = m?.[1]?.toLowerCase() ?? '';
      if (!schemes.includes(scheme))
        ctx.error(`${p}.endpoint`, `unexpected logging endpoint scheme ${JSON.stringify(scheme)}`);
    }
    if (!loggingFormats.includes(d.format ?? ''))
      ctx.error(`${p}.format`, `unknown logging format ${JSON.stringify(d.format ?? '')}`);
  });
}
