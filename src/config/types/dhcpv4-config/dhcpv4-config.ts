// DHCPv4Config: run the DHCPv4 client on one link, with its options.
import { defineDocument, type NamedHeader } from '../definition.js';
import { bool, int, namedHeader, str, struct } from '../schema.js';

export interface DHCPv4Config extends NamedHeader {
  routeMetric?: number;
  ignoreHostname?: boolean;
  clientIdentifier?: string;
  duidRaw?: string;
}

export const DHCPv4ConfigDefinition = defineDocument<DHCPv4Config>({
  kind: 'DHCPv4Config',
  named: true,
  schema: struct({
    ...namedHeader,
    routeMetric: int,
    ignoreHostname: bool,
    clientIdentifier: str,
    duidRaw: str,
  }),
  validate(doc, ctx) {
    if (!doc.name) ctx.error('name', 'name must be specified');
    const id = doc.clientIdentifier;
    if (id !== undefined && !['none', 'mac', 'duid'].includes(id))
      ctx.error(
        'clientIdentifier',
        `invalid client identifier ${JSON.stringify(id)}, expected none, mac or duid`,
      );
    if (id === 'duid' && !doc.duidRaw)
      ctx.error('duidRaw', 'duidRaw is required when clientIdentifier is duid');
    if (doc.duidRaw !== undefined && !/^([0-9a-f]{2})(:[0-9a-f]{2})*$/i.test(doc.duidRaw))
      ctx.error('duidRaw', 'duidRaw must be colon-separated hex bytes');
    if (doc.duidRaw !== undefined && id !== 'duid')
      ctx.error('duidRaw', 'duidRaw is only allowed when clientIdentifier is duid');
  },
});
