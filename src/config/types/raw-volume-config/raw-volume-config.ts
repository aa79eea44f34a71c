// RawVolumeConfig: a partition made on a selected disk and left unformatted (label `r-<name>`), for CSI
// provisioners that bring their own filesystem.
import { validateEncryption } from '../../validate/encryption.js';
import { validateProvisioning } from '../../validate/provisioning.js';
import { type EncryptionSpec, encryption, type ProvisioningSpec, provisioning } from '../common.js';
import { defineDocument, type NamedHeader } from '../definition.js';
import { namedHeader, struct } from '../schema.js';

export interface RawVolumeConfig extends NamedHeader {
  provisioning?: ProvisioningSpec;
  encryption?: EncryptionSpec;
}

/** the partition label is `r-<name>` and a GPT label holds 36 characters, so a name holds 34 */
export const MAX_RAW_VOLUME_NAME = 36 - 'r-'.length;

export const RawVolumeConfigDefinition = defineDocument<RawVolumeConfig>({
  kind: 'RawVolumeConfig',
  named: true,
  schema: struct({ ...namedHeader, provisioning, encryption }),
  validate(doc, ctx) {
    // upstream's rules and words: a required name of 1-34 ASCII letters (either case), digits and hyphens
    const name = doc.name ?? '';
    if (!name) ctx.error('name', 'name is required');
    else if (name.length > MAX_RAW_VOLUME_NAME)
      ctx.error('name', `name must be between 1 and ${MAX_RAW_VOLUME_NAME} characters long`);
    if (/[^A-Za-z0-9-]/.test(name))
      ctx.error('name', 'name can only contain lowercase and uppercase ASCII letters, digits, and hyphens');
    // provisioning is required: a disk to put the partition on and a size for it
    const p = doc.provisioning ?? {};
    // (an empty expression is validateProvisioning's to name)
    if (!p.diskSelector) ctx.error('provisioning.diskSelector.match', 'disk selector is required');
    if (p.minSize === undefined && p.maxSize === undefined)
      ctx.error('provisioning.minSize', 'min size or max size is required');
    if (doc.provisioning) validateProvisioning(doc.provisioning, 'provisioning', ctx);
    if (doc.encryption) validateEncryption(doc.encryption, 'encryption', ctx);
  },
});
