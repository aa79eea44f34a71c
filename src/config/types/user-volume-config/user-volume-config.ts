// UserVolumeConfig: a user volume mounted under /var/mnt/<name>.
import { validateEncryption } from '../../validate/encryption.js';
import { validateProvisioning } from '../../validate/provisioning.js';
import { type EncryptionSpec, encryption, type ProvisioningSpec, provisioning } from '../common.js';
import { defineDocument, type NamedHeader } from '../definition.js';
import { namedHeader, str, struct } from '../schema.js';

export interface UserVolumeConfig extends NamedHeader {
  volumeType?: string;
  provisioning?: ProvisioningSpec;
  filesystem?: { type?: string };
  encryption?: EncryptionSpec;
}

const volumeTypes = ['partition', 'directory', 'disk'];

export const UserVolumeConfigDefinition = defineDocument<UserVolumeConfig>({
  kind: 'UserVolumeConfig',
  named: true,
  schema: struct({
    ...namedHeader,
    volumeType: str,
    provisioning,
    filesystem: struct({ type: str }),
    encryption,
  }),
  validate(doc, ctx) {
    const name = doc.name ?? '';
    if (!/^[a-z0-9]([a-z0-9-]{0,32}[a-z0-9])?$/.test(name))
      ctx.error(
        'name',
        `invalid volume name ${JSON.stringify(name)}: lowercase letters, digits and dashes, 1-34`,
      );
    const type = doc.volumeType ?? 'partition';
    if (!volumeTypes.includes(type)) ctx.error('volumeType', `invalid volume type ${JSON.stringify(type)}`);
    if (type === 'partition' && !doc.provisioning?.diskSelector?.match)
      ctx.error('provisioning.diskSelector.match', 'disk selector is required for partition volumes');
    if (type === 'directory' && (doc.provisioning || doc.encryption))
      ctx.error('provisioning', 'directory volumes take no provisioning or encryption');
    if (doc.provisioning) validateProvisioning(doc.provisioning, 'provisioning', ctx);
    const fs = doc.filesystem?.type;
    if (fs !== undefined && fs !== 'xfs' && fs !== 'ext4')
      ctx.error('filesystem.type', `unsupported filesystem ${JSON.stringify(fs)}`);
    if (doc.encryption) validateEncryption(doc.encryption, 'encryption', ctx);
  },
});
