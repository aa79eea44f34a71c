// TLS for the API: rotatable mutual-TLS credentials against the OS CA, server-only credentials and the
// throw-away PKI of maintenance mode.
export {
  type ApiIdentity,
  mutualTLSCredentials,
  type RotatableCredentials,
  serverOnlyTLSCredentials,
} from './credentials.js';
export {
  type MaintenanceIdentity,
  type MaintenanceIdentityOptions,
  maintenanceConsoleLines,
  mintMaintenanceIdentity,
} from './maintenance.js';
export { type MemoryCertificateProvider, memoryCertificateProvider } from './provider.js';
