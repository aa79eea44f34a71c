// Document types: the v1alpha1 document and every typed document kind Keel reads.
// Each kind has a TypeScript interface, a schema with upstream keys in upstream order, and its own rules.

export type { BondConfig } from './bond-config/bond-config.js';
export type { BridgeConfig } from './bridge-config/bridge-config.js';
export type { CertAndKey, EncryptionSpec, ProvisioningSpec } from './common.js';
export type { DocumentDefinition } from './definition.js';
export type { DHCPv4Config } from './dhcpv4-config/dhcpv4-config.js';
export type { DummyLinkConfig } from './dummy-link-config/dummy-link-config.js';
export type { EnvironmentConfig } from './environment-config/environment-config.js';
export type { HostnameConfig } from './hostname-config/hostname-config.js';
export type { LinkAddress, LinkConfig, LinkRoute } from './link-config/link-config.js';
export type { RawVolumeConfig } from './raw-volume-config/raw-volume-config.js';
export { definitionOf, registeredKinds } from './registry.js';
export type { Nameserver, ResolverConfig } from './resolver-config/resolver-config.js';
export type { Schema, StructSchema } from './schema.js';
export type { StaticHostConfig } from './static-host-config/static-host-config.js';
export type { SysctlConfig } from './sysctl-config/sysctl-config.js';
export type { TimeSyncConfig } from './time-sync-config/time-sync-config.js';
export type { UserVolumeConfig } from './user-volume-config/user-volume-config.js';
export * from './v1alpha1/index.js';
export type { VLANConfig } from './vlan-config/vlan-config.js';
export type { VolumeConfig } from './volume-config/volume-config.js';
export type { WireguardConfig } from './wireguard-config/wireguard-config.js';
