// HostnameConfig: a static hostname, or `auto: stable|off` (replaces machine.network.hostname).
import { hostnameProblem } from '../../validate/formats.js';
import { defineDocument, type TypedHeader } from '../definition.js';
import { str, struct, typedHeader } from '../schema.js';

export interface HostnameConfig extends TypedHeader {
  auto?: string;
  hostname?: string;
}

export const HostnameConfigDefinition = defineDocument<HostnameConfig>({
  kind: 'HostnameConfig',
  named: false,
  schema: struct({ ...typedHeader, auto: str, hostname: str }),
  validate(doc, ctx) {
    if (doc.auto === undefined && !doc.hostname)
      ctx.error('hostname', "either 'auto' or 'hostname' must be set");
    // a static hostname needs `auto: off`: an absent auto means address-based naming upstream
    if (doc.hostname && doc.auto !== 'off')
      ctx.error('hostname', "'auto' and 'hostname' cannot be set at the same time");
    if (doc.auto !== undefined && doc.auto !== 'stable' && doc.auto !== 'off')
      ctx.error('auto', `invalid value for 'auto': ${doc.auto}`);
    const problem = doc.hostname ? hostnameProblem(doc.hostname) : undefined;
    if (problem) ctx.error('hostname', problem);
  },
});
