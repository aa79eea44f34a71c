// The registry of typed document kinds Keel decodes; an unknown kind is an error.

import { BondConfigDefinition } from './bond-config/bond-config.js';
import { BridgeConfigDefinition } from './bridge-config/bridge-config.js';
import type { DocumentDefinition } from './definition.js';
import { DHCPv4ConfigDefinition } from './dhcpv4-config/dhcpv4-config.js';
import { DummyLinkConfigDefinition } from './dummy-link-config/dummy-link-config.js';
import { EnvironmentConfigDefinition } from './environment-config/environment-config.js';
import { HostnameConfigDefinition } from './hostname-config/hostname-config.js';
import { LinkConfigDefinition } from './link-config/link-config.js';
import { RawVolumeConfigDefinition } from './raw-volume-config/raw-volume-config.js';
import { ResolverConfigDefinition } from './resolver-config/resolver-config.js';
import { StaticHostConfigDefinition } from './static-host-config/static-host-config.js';
import { SysctlConfigDefinition } from './sysctl-config/sysctl-config.js';
import { TimeSyncConfigDefinition } from './time-sync-config/time-sync-config.js';
import { UserVolumeConfigDefinition } from './user-volume-config/user-volume-config.js';
import { VLANConfigDefinition } from './vlan-config/vlan-config.js';
import { VolumeConfigDefinition } from './volume-config/volume-config.js';
import { WireguardConfigDefinition } from './wireguard-config/wireguard-config.js';

const definitions: readonly DocumentDefinition[] = [
  HostnameConfigDefinition,
  LinkConfigDefinition,
  DummyLinkConfigDefinition,
  VLANConfigDefinition,
  BondConfigDefinition,
  BridgeConfigDefinition,
  WireguardConfigDefinition,
  DHCPv4ConfigDefinition,
  ResolverConfigDefinition,
  StaticHostConfigDefinition,
  TimeSyncConfigDefinition,
  SysctlConfigDefinition,
  EnvironmentConfigDefinition,
  VolumeConfigDefinition,
  UserVolumeConfigDefinition,
  RawVolumeConfigDefinition,
];

const byKind = new Map(definitions.map((d) => [d.kind, d]));

export const definitionOf = (kind: string): DocumentDefinition | undefined => byKind.get(kind);
export const registeredKinds = (): string[] => [...byKind.keys()];
