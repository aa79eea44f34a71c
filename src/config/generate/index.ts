// Config generation: the secrets bundle and its YAML layout, controlplane/worker configs, talosconfig, kubeconfig.
// Everything but secrets-bundle.ts and mintAdminKubeconfig (which mint keys through src/pki) is pure.
export {
  ADMIN_KUBECONFIG_COMMON_NAME,
  ADMIN_KUBECONFIG_DEFAULT_LIFETIME_MS,
  ADMIN_KUBECONFIG_ORGANIZATION,
  type AdminKubeconfigPlan,
  adminKubeconfigPlan,
  mintAdminKubeconfig,
} from './admin-kubeconfig.js';
export {
  type BundleCertAndKey,
  decodeSecretsBundle,
  encodeSecretsBundle,
  type SecretsBundle,
  talosEd25519Label,
} from './bundle.js';
export {
  type ContractGates,
  gatesOf,
  OLDEST_CONTRACT,
  parseContract,
  type VersionContract,
} from './contract.js';
export { type KubeconfigInput, renderKubeconfig } from './kubeconfig.js';
export { type GeneratedConfigs, generateConfigs } from './machine-config.js';
export * from './options.js';
export { type MintOptions, mintAdminCertificate, mintSecrets } from './secrets-bundle.js';
export {
  decodeTalosconfig,
  encodeTalosconfig,
  newTalosconfig,
  type Talosconfig,
  type TalosconfigContext,
  type TalosconfigInput,
} from './talosconfig.js';
