// One read interface over a Config: a typed document wins over the v1alpha1 field it replaces,
// so controllers never look at which generation of the format a setting came from.
import { type Config, documentOf, documentsOf, v1alpha1Of } from './container.js';
import type { CertAndKey, EncryptionSpec } from './types/common.js';
import type { ClusterConfig } from './types/v1alpha1/cluster.js';
import type {
  FeaturesConfig,
  InstallConfig,
  KubeletConfig,
  MachineConfig,
  V1Encryption,
} from './types/v1alpha1/machine.js';
import type { DeviceSelector } from './types/v1alpha1/network.js';
import { effectiveType } from './validate/machine.js';

export type MachineType = 'init' | 'controlplane' | 'worker' | 'unknown';

export interface HostnameSetting {
  readonly hostname?: string;
  readonly auto?: 'stable' | 'off';
}
export interface LinkSetting {
  /** link name; undefined for a v1alpha1 interface picked by deviceSelector */
  readonly name?: string;
  readonly selector?: Readonly<DeviceSelector>;
  readonly up: boolean;
  readonly mtu?: number;
  readonly addresses: readonly { address: string; routePriority?: number }[];
  readonly routes: readonly {
    destination?: string;
    gateway?: string;
    source?: string;
    metric?: number;
    mtu?: number;
  }[];
  readonly source: 'LinkConfig' | 'v1alpha1';
}
export interface DHCPv4Setting {
  readonly link: string;
  readonly routeMetric?: number;
  readonly ignoreHostname: boolean;
  readonly clientIdentifier: 'none' | 'mac' | 'duid';
  readonly duidRaw?: string;
}
export interface TimeSyncSetting {
  readonly enabled: boolean;
  readonly servers: readonly string[];
  readonly ptpDevices: readonly string[];
  readonly bootTimeout?: string;
  readonly useNTS: boolean;
}
export interface StaticHost {
  readonly ip: string;
  readonly hostnames: readonly string[];
}

/** The default time server when none is configured (upstream constants.DefaultNTPServer). */
export const DEFAULT_NTP_SERVER = 'time.cloudflare.com';

export interface MachineAccessors {
  machineType(): MachineType;
  token(): string | undefined;
  osCA(): CertAndKey | undefined;
  certSANs(): readonly string[];
  hostname(): HostnameSetting | undefined;
  links(): readonly LinkSetting[];
  dhcp4(): readonly DHCPv4Setting[];
  resolvers(): readonly string[];
  searchDomains(): readonly string[];
  hostDNS(): { enabled: boolean; forwardKubeDNSToHost: boolean; resolveMemberNames: boolean };
  staticHosts(): readonly StaticHost[];
  timeSync(): TimeSyncSetting;
  timeServers(): readonly string[];
  sysctls(): Readonly<Record<string, string>>;
  env(): Readonly<Record<string, string>>;
  systemVolumeEncryption(volume: 'STATE' | 'EPHEMERAL'): EncryptionSpec | V1Encryption | undefined;
  kubelet(): KubeletConfig;
  install(): InstallConfig | undefined;
  features(): FeaturesConfig;
  nodeLabels(): Readonly<Record<string, string>>;
  nodeTaints(): Readonly<Record<string, string>>;
  cluster(): ClusterConfig;
  clusterName(): string | undefined;
  controlPlaneEndpoint(): string | undefined;
}

/** accessors returns the read interface for one Config. */
export function accessors(cfg: Config): MachineAccessors {
  const v1 = v1alpha1Of(cfg);
  const m: MachineConfig = v1?.machine ?? {};
  const c: ClusterConfig = v1?.cluster ?? {};
  const resolver = () => documentOf(cfg, 'ResolverConfig');
  const self: MachineAccessors = {
    machineType: () => {
      if (!v1?.machine) return 'unknown';
      const t = effectiveType(m.type);
      return t === 'init' || t === 'controlplane' || t === 'worker' ? t : 'unknown';
    },
    token: () => m.token,
    osCA: () => m.ca,
    certSANs: () => m.certSANs ?? [],
    hostname: () => {
      const doc = documentOf(cfg, 'HostnameConfig');
      if (doc) {
        const auto = doc.auto === 'stable' || doc.auto === 'off' ? doc.auto : undefined;
        return { ...(doc.hostname ? { hostname: doc.hostname } : {}), ...(auto ? { auto } : {}) };
      }
      if (m.network?.hostname) return { hostname: m.network.hostname };
      if (m.features?.stableHostname) return { auto: 'stable' };
      return undefined;
    },
    links: () => {
      const typed: LinkSetting[] = documentsOf(cfg, 'LinkConfig').map((d) => ({
        name: d.name!,
        up: d.spec.up ?? true,
        ...(d.spec.mtu === undefined ? {} : { mtu: d.spec.mtu }),
        addresses: (d.spec.addresses ?? []).map((a) => ({ ...a, address: a.address ?? '' })),
        routes: d.spec.routes ?? [],
        source: 'LinkConfig' as const,
      }));
      const named = new Set(typed.map((l) => l.name));
      const legacy: LinkSetting[] = (m.network?.interfaces ?? [])
        .filter((dev) => !dev.ignore && !(dev.interface && named.has(dev.interface)))
        .map((dev) => ({
          ...(dev.interface ? { name: dev.interface } : {}),
          ...(dev.deviceSelector ? { selector: dev.deviceSelector } : {}),
          up: true,
          ...(dev.mtu === undefined ? {} : { mtu: dev.mtu }),
          addresses: [...(dev.addresses ?? []), ...(dev.cidr ? [dev.cidr] : [])].map((a) => ({
            address: withPrefix(a),
          })),
          routes: (dev.routes ?? []).map(({ network, ...r }) => ({
            ...r,
            ...(network ? { destination: network } : {}),
          })),
          source: 'v1alpha1' as const,
        }));
      return [...typed, ...legacy];
    },
    dhcp4: () => {
      const typed: DHCPv4Setting[] = documentsOf(cfg, 'DHCPv4Config').map((d) => ({
        link: d.name!,
        ...(d.spec.routeMetric === undefined ? {} : { routeMetric: d.spec.routeMetric }),
        ignoreHostname: d.spec.ignoreHostname ?? false,
        clientIdentifier: (d.spec.clientIdentifier as DHCPv4Setting['clientIdentifier'] | undefined) ?? 'mac',
        ...(d.spec.duidRaw ? { duidRaw: d.spec.duidRaw } : {}),
      }));
      const named = new Set(typed.map((d) => d.link));
      const legacy: DHCPv4Setting[] = (m.network?.interfaces ?? [])
        .filter(
          (dev) => dev.interface && dev.dhcp && dev.dhcpOptions?.ipv4 !== false && !named.has(dev.interface),
        )
        .map((dev) => ({
          link: dev.interface!,
          ...(dev.dhcpOptions?.routeMetric ? { routeMetric: dev.dhcpOptions.routeMetric } : {}),
          ignoreHostname: false,
          clientIdentifier: 'mac',
        }));
      return [...typed, ...legacy];
    },
    resolvers: () => {
      const r = resolver();
      if (r?.nameservers) return r.nameservers.map((n) => n.address ?? '').filter((a) => a !== '');
      return m.network?.nameservers ?? [];
    },
    searchDomains: () => resolver()?.searchDomains?.domains ?? m.network?.searchDomains ?? [],
    hostDNS: () => {
      const h = resolver()?.hostDNS ?? m.features?.hostDNS ?? {};
      return {
        enabled: h.enabled ?? false,
        forwardKubeDNSToHost: h.forwardKubeDNSToHost ?? false,
        resolveMemberNames: h.resolveMemberNames ?? false,
      };
    },
    staticHosts: () => {
      const typed = documentsOf(cfg, 'StaticHostConfig');
      if (typed.length > 0) return typed.map((d) => ({ ip: d.name!, hostnames: d.spec.hostnames ?? [] }));
      return (m.network?.extraHostEntries ?? []).map((h) => ({ ip: h.ip ?? '', hostnames: h.aliases ?? [] }));
    },
    timeSync: () => {
      const t = documentOf(cfg, 'TimeSyncConfig');
      if (t) {
        const ptp = t.ptp?.devices ?? [];
        return {
          enabled: t.enabled ?? true,
          servers: t.ntp?.servers ?? (ptp.length > 0 ? [] : [DEFAULT_NTP_SERVER]),
          ptpDevices: ptp,
          ...(t.bootTimeout ? { bootTimeout: t.bootTimeout } : {}),
          useNTS: t.ntp?.useNTS ?? false,
        };
      }
      const servers = m.time?.servers ?? [DEFAULT_NTP_SERVER];
      return {
        enabled: !(m.time?.disabled ?? false),
        servers: servers.filter((s) => !s.startsWith('/dev/')),
        ptpDevices: servers.filter((s) => s.startsWith('/dev/')),
        ...(m.time?.bootTimeout ? { bootTimeout: m.time.bootTimeout } : {}),
        useNTS: false,
      };
    },
    timeServers: () => self.timeSync().servers,
    // maps merge key by key, the typed document winning
    sysctls: () => ({ ...m.sysctls, ...documentOf(cfg, 'SysctlConfig')?.params }),
    env: () => ({ ...m.env, ...documentOf(cfg, 'EnvironmentConfig')?.variables }),
    systemVolumeEncryption: (volume) =>
      documentOf(cfg, 'VolumeConfig', volume)?.encryption ??
      m.systemDiskEncryption?.[volume === 'STATE' ? 'state' : 'ephemeral'],
    kubelet: () => m.kubelet ?? {},
    install: () => m.install,
    features: () => m.features ?? {},
    nodeLabels: () => m.nodeLabels ?? {},
    nodeTaints: () => m.nodeTaints ?? {},
    cluster: () => c,
    clusterName: () => c.clusterName,
    controlPlaneEndpoint: () => c.controlPlane?.endpoint,
  };
  return self;
}

/** An address without a prefix length is a host address: /32 for IPv4, /128 for IPv6. */
const withPrefix = (a: string): string => (a.includes('/') ? a : `${a}/${a.includes(':') ? 128 : 32}`);
