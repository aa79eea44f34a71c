// VLANConfig: an 802.1q/802.1ad VLAN on a parent link (replaces `interfaces[].vlans`).
import { defineDocument } from '../definition.js';
import {
  type CommonLink,
  commonLinkFields,
  linkHeader,
  validateLinkFields,
  validateLinkName,
} from '../link-common/link-common.js';
import { int, str, struct } from '../schema.js';

export interface VLANConfig extends CommonLink {
  vlanID?: number;
  vlanMode?: string;
  parent?: string;
}

export const vlanModes = ['802.1q', '802.1ad'];

export const VLANConfigDefinition = defineDocument<VLANConfig>({
  kind: 'VLANConfig',
  named: true,
  schema: struct({ ...linkHeader, vlanID: int, vlanMode: str, parent: str, ...commonLinkFields }),
  validate(doc, ctx) {
    validateLinkName(doc, ctx);
    if (!doc.vlanID || doc.vlanID < 1 || doc.vlanID > 4094)
      ctx.error('vlanID', 'vlanID must be specified and between 1 and 4094');
    if (!doc.parent) ctx.error('parent', 'parent must be specified');
    if (doc.vlanMode !== undefined && !vlanModes.includes(doc.vlanMode))
      ctx.error('vlanMode', "vlanMode must be either '802.1q' or '802.1ad'");
    validateLinkFields(doc, ctx);
  },
});
