// SysctlConfig: kernel parameters (merged over machine.sysctls, key by key).
import { isSysctlName } from '../../validate/formats.js';
import { defineDocument, type TypedHeader } from '../definition.js';
import { map, struct, typedHeader } from '../schema.js';

export interface SysctlConfig extends TypedHeader {
  params?: Record<string, string>;
}

export const SysctlConfigDefinition = defineDocument<SysctlConfig>({
  kind: 'SysctlConfig',
  named: false,
  schema: struct({ ...typedHeader, params: map() }),
  validate(doc, ctx) {
    for (const k of Object.keys(doc.params ?? {}))
      if (!isSysctlName(k)) ctx.error(`params.${k}`, `invalid sysctl name ${JSON.stringify(k)}`);
  },
});
