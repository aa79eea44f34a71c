// BridgeConfig: a bridge over member links, with STP and VLAN filtering (replaces `interfaces[].bridge`).
import { defineDocument } from '../definition.js';
import {
  type CommonLink,
  commonLinkFields,
  linkHeader,
  validateCommonLink,
  validateHardwareAddr,
} from '../link-common/link-common.js';
import { bool, list, str, struct } from '../schema.js';

export interface BridgeConfig extends CommonLink {
  hardwareAddr?: string;
  links?: string[];
  stp?: { enabled?: boolean };
  vlan?: { filtering?: boolean };
}

export const BridgeConfigDefinition = defineDocument<BridgeConfig>({
  kind: 'BridgeConfig',
  named: true,
  schema: struct({
    ...linkHeader,
    hardwareAddr: str,
    links: list(str),
    stp: struct({ enabled: bool }),
    vlan: struct({ filtering: bool }),
    ...commonLinkFields,
  }),
  validate(doc, ctx) {
    validateCommonLink(doc, ctx);
    validateHardwareAddr(doc.hardwareAddr, ctx);
  },
});
