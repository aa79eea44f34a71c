// VolumeConfig: provisioning and encryption of a system volume (replaces machine.systemDiskEncryption).
import type { RuleContext } from '../../validate/context.js';
import { validateEncryption } from '../../validate/encryption.js';
import { validateProvisioning } from '../../validate/provisioning.js';
import { type EncryptionSpec, encryption, type ProvisioningSpec, provisioning } from '../common.js';
import { defineDocument, type NamedHeader } from '../definition.js';
import { namedHeader, struct } from '../schema.js';

export interface VolumeConfig extends NamedHeader {
  provisioning?: ProvisioningSpec;
  encryption?: EncryptionSpec;
}

export const systemVolumes = ['STATE', 'EPHEMERAL', 'IMAGECACHE', 'ETCD', 'CRI', 'KUBELET', 'LOG'] as const;

export const VolumeConfigDefinition = defineDocument<VolumeConfig>({
  kind: 'VolumeConfig',
  named: true,
  schema: struct({ ...namedHeader, provisioning, encryption }),
  validate(doc: VolumeConfig, ctx: RuleContext) {
    if (!(systemVolumes as readonly string[]).includes(doc.name ?? ''))
      ctx.error('name', `unknown system volume ${JSON.stringify(doc.name ?? '')}`);
    if (doc.name === 'STATE' && doc.provisioning)
      ctx.error('provisioning', 'provisioning is not supported for the STATE volume');
    if (doc.provisioning) validateProvisioning(doc.provisioning, 'provisioning', ctx);
    if (doc.encryption) validateEncryption(doc.encryption, 'encryption', ctx);
  },
});
