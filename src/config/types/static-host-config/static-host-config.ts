// StaticHostConfig: one /etc/hosts entry, named by its IP (replaces machine.network.extraHostEntries).
import { isDNSName, isIPAddress } from '../../validate/formats.js';
import { defineDocument, type NamedHeader } from '../definition.js';
import { list, namedHeader, str, struct } from '../schema.js';

export interface StaticHostConfig extends NamedHeader {
  hostnames?: string[];
}

export const StaticHostConfigDefinition = defineDocument<StaticHostConfig>({
  kind: 'StaticHostConfig',
  named: true,
  schema: struct({ ...namedHeader, hostnames: list(str) }),
  validate(doc, ctx) {
    if (!doc.name || !isIPAddress(doc.name))
      ctx.error('name', `${JSON.stringify(doc.name ?? '')} is not an IP address`);
    if (!doc.hostnames?.length) ctx.error('hostnames', 'at least one hostname is required');
    doc.hostnames?.forEach((h, i) => {
      if (!isDNSName(h)) ctx.error(`hostnames[${i}]`, `invalid hostname ${JSON.stringify(h)}`);
    });
  },
});
