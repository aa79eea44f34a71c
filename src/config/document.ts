// A decoded document: its kind, optional name, plain data in upstream shape, and where each field was.

import type { BondConfig } from './types/bond-config/bond-config.js';
import type { BridgeConfig } from './types/bridge-config/bridge-config.js';
import type { DHCPv4Config } from './types/dhcpv4-config/dhcpv4-config.js';
import type { DummyLinkConfig } from './types/dummy-link-config/dummy-link-config.js';
import type { EnvironmentConfig } from './types/environment-config/environment-config.js';
import type { HostnameConfig } from './types/hostname-config/hostname-config.js';
import type { LinkConfig } from './types/link-config/link-config.js';
import type { RawVolumeConfig } from './types/raw-volume-config/raw-volume-config.js';
import type { ResolverConfig } from './types/resolver-config/resolver-config.js';
import type { StaticHostConfig } from './types/static-host-config/static-host-config.js';
import type { SysctlConfig } from './types/sysctl-config/sysctl-config.js';
import type { TimeSyncConfig } from './types/time-sync-config/time-sync-config.js';
import type { UserVolumeConfig } from './types/user-volume-config/user-volume-config.js';
import type { V1Alpha1Config } from './types/v1alpha1/config.js';
import type { VLANConfig } from './types/vlan-config/vlan-config.js';
import type { VolumeConfig } from './types/volume-config/volume-config.js';
import type { WireguardConfig } from './types/wireguard-config/wireguard-config.js';

/** DocumentTypes maps each kind to its data type; `v1alpha1` is the legacy document. */
export interface DocumentTypes {
  v1alpha1: V1Alpha1Config;
  HostnameConfig: HostnameConfig;
  LinkConfig: LinkConfig;
  DummyLinkConfig: DummyLinkConfig;
  VLANConfig: VLANConfig;
  BondConfig: BondConfig;
  BridgeConfig: BridgeConfig;
  WireguardConfig: WireguardConfig;
  DHCPv4Config: DHCPv4Config;
  ResolverConfig: ResolverConfig;
  StaticHostConfig: StaticHostConfig;
  TimeSyncConfig: TimeSyncConfig;
  SysctlConfig: SysctlConfig;
  EnvironmentConfig: EnvironmentConfig;
  VolumeConfig: VolumeConfig;
  UserVolumeConfig: UserVolumeConfig;
  RawVolumeConfig: RawVolumeConfig;
}
export type Kind = keyof DocumentTypes;

/** LineIndex maps a field path (`machine.network.interfaces[0]`, '' for the document) to its line. */
export type LineIndex = ReadonlyMap<string, number>;

export interface ConfigDocument<K extends Kind = Kind> {
  readonly kind: K;
  readonly name?: string;
  readonly spec: DocumentTypes[K];
  readonly lines: LineIndex;
}

export const V1ALPHA1 = 'v1alpha1';

/** label names a document in messages: `v1alpha1`, `HostnameConfig`, `LinkConfig/eth0`. */
export const label = (d: { kind: string; name?: string | undefined }): string =>
  d.name === undefined ? d.kind : `${d.kind}/${d.name}`;

/** lineOf finds the line of a path, falling back to its nearest recorded ancestor. */
export function lineOf(lines: LineIndex, path: string): number | undefined {
  for (let p = path; ; p = parent(p)) {
    const l = lines.get(p);
    if (l !== undefined || p === '') return l;
  }
}
const parent = (p: string): string => {
  const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
  return cut <= 0 ? '' : p.slice(0, cut);
};
