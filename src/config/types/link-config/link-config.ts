// LinkConfig: addresses, routes, MTU and state of one physical link (replaces machine.network.interfaces).
import { defineDocument } from '../definition.js';
import {
  type CommonLink,
  commonLinkFields,
  linkHeader,
  validateCommonLink,
} from '../link-common/link-common.js';
import { struct } from '../schema.js';

export type { LinkAddress, LinkRoute } from '../link-common/link-common.js';

/** LinkConfig is upstream's LinkConfigV1Alpha1: a name and the inlined CommonLinkConfig, nothing else. */
export type LinkConfig = CommonLink;

export const LinkConfigDefinition = defineDocument<LinkConfig>({
  kind: 'LinkConfig',
  named: true,
  schema: struct({ ...linkHeader, ...commonLinkFields }),
  // upstream's Validate is the name check plus CommonLinkConfig.Validate, as for the other link kinds
  validate: validateCommonLink,
});
