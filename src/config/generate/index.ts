// Config generation: the secrets bundle and its YAML layout, controlplane/worker configs, talosconfig.
// Everything but secrets-bundle.ts (which mints keys through src/pki) is pure.
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
