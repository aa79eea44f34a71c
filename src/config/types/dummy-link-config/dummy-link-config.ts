// DummyLinkConfig: a dummy link, addressed like any other (replaces `interfaces[].dummy`).
import { defineDocument } from '../definition.js';
import {
  type CommonLink,
  commonLinkFields,
  linkHeader,
  validateCommonLink,
  validateHardwareAddr,
} from '../link-common/link-common.js';
import { str, struct } from '../schema.js';

export interface DummyLinkConfig extends CommonLink {
  hardwareAddr?: string;
}

export const DummyLinkConfigDefinition = defineDocument<DummyLinkConfig>({
  kind: 'DummyLinkConfig',
  named: true,
  schema: struct({ ...linkHeader, hardwareAddr: str, ...commonLinkFields }),
  validate(doc, ctx) {
    validateCommonLink(doc, ctx);
    validateHardwareAddr(doc.hardwareAddr, ctx);
  },
});
