// MaintenanceRootSecrets.secrets.talos.dev (`maintenance`): a throw-away CA minted once per boot.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type CertificateAndKey, codec, f } from './fields.js';
import { SECRETS_NAMESPACE } from './namespace.js';

export const MAINTENANCE_ROOT_ID = 'maintenance';

export interface MaintenanceRootSpec {
  ca: CertificateAndKey | null;
}

export const MaintenanceRoot = defineResource<MaintenanceRootSpec>({
  type: 'MaintenanceRootSecrets.secrets.talos.dev',
  defaultNamespace: SECRETS_NAMESPACE,
  sensitivity: 'sensitive',
  ...codec<MaintenanceRootSpec>({ ca: f('ca', 1, 'pair') }),
});
export type MaintenanceRoot = ResourceOf<typeof MaintenanceRoot>;
