// EnvironmentConfig: variables for PID 1 and every service (merged over machine.env, key by key).
import { isEnvName } from '../../validate/formats.js';
import { defineDocument, type TypedHeader } from '../definition.js';
import { map, struct, typedHeader } from '../schema.js';

export interface EnvironmentConfig extends TypedHeader {
  variables?: Record<string, string>;
}

export const EnvironmentConfigDefinition = defineDocument<EnvironmentConfig>({
  kind: 'EnvironmentConfig',
  named: false,
  schema: struct({ ...typedHeader, variables: map() }),
  validate(doc, ctx) {
    for (const k of Object.keys(doc.variables ?? {}))
      if (!isEnvName(k))
        ctx.error(`variables.${k}`, `invalid environment variable name ${JSON.stringify(k)}`);
  },
});
