import { describe, expect, it } from 'vitest';
import { accessors, DEFAULT_NTP_SERVER } from '../../src/config/accessors.js';
import { decode } from '../../src/config/decoder/index.js';

const legacy = `version: v1alpha1
machine:
    type: join
    network:
        hostname: legacy
        interfaces:
            - interface: eth0
              addresses:
                  - 10.0.0.2
                  - fd00::2/64
              routes:
                  - network: 0.0.0.0/0
                    gateway: 10.0.0.1
              dhcp: true
            - deviceSelector:
                  hardwareAddr: aa:bb:*
              mtu: 9000
        nameservers:
            - 1.1.1.1
        searchDomains:
            - legacy.local
        extraHostEntries:
            - ip: 10.0.0.9
              aliases:
                  - db
    env:
        A: "1"
        B: "1"
    time:
        servers:
            - pool.ntp.org
            - /dev/ptp0
        bootTimeout: 1m0s
    sysctls:
        net.ipv4.ip_forward: "1"
        vm.swappiness: "10"
    systemDiskEncryption:
        state:
            provider: luks2
            keys:
                - nodeID: {}
                  slot: 0
    features:
        hostDNS:
            enabled: true
cluster:
    clusterName: demo
    controlPlane:
        endpoint: https://10.5.0.2:6443
`;

const typed = `apiVersion: v1alpha1
kind: HostnameConfig
hostname: typed
auto: "off"
---
apiVersion: v1alpha1
kind: LinkConfig
name: eth1
mtu: 1500
addresses:
    - address: 192.168.1.2/24
---
apiVersion: v1alpha1
kind: DHCPv4Config
name: eth1
routeMetric: 512
---
apiVersion: v1alpha1
kind: ResolverConfig
nameservers:
    - address: 9.9.9.9
searchDomains:
    domains:
        - typed.local
hostDNS:
    enabled: true
    forwardKubeDNSToHost: true
---
apiVersion: v1alpha1
kind: StaticHostConfig
name: 10.0.0.10
hostnames:
    - cache
---
apiVersion: v1alpha1
kind: TimeSyncConfig
ntp:
    servers:
        - time.google.com
---
apiVersion: v1alpha1
kind: SysctlConfig
params:
    vm.swappiness: "1"
---
apiVersion: v1alpha1
kind: EnvironmentConfig
variables:
    B: "2"
---
apiVersion: v1alpha1
kind: VolumeConfig
name: EPHEMERAL
encryption:
    provider: luks2
    keys:
        - slot: 0
          tpm: {}
`;

describe('accessors read v1alpha1 fields', () => {
  const a = accessors(decode(legacy));
  it('reads machine type, hostname, resolvers and hosts', () => {
    expect(a.machineType()).toBe('worker');
    expect(a.hostname()).toEqual({ hostname: 'legacy' });
    expect(a.resolvers()).toEqual(['1.1.1.1']);
    expect(a.searchDomains()).toEqual(['legacy.local']);
    expect(a.staticHosts()).toEqual([{ ip: '10.0.0.9', hostnames: ['db'] }]);
    expect(a.hostDNS()).toEqual({ enabled: true, forwardKubeDNSToHost: false, resolveMemberNames: false });
    expect(a.clusterName()).toBe('demo');
    expect(a.controlPlaneEndpoint()).toBe('https://10.5.0.2:6443');
  });
  it('turns interfaces into links, giving bare addresses a host prefix', () => {
    expect(a.links()).toEqual([
      {
        name: 'eth0',
        up: true,
        addresses: [{ address: '10.0.0.2/32' }, { address: 'fd00::2/64' }],
        routes: [{ destination: '0.0.0.0/0', gateway: '10.0.0.1' }],
        source: 'v1alpha1',
      },
      {
        selector: { hardwareAddr: 'aa:bb:*' },
        up: true,
        mtu: 9000,
        addresses: [],
        routes: [],
        source: 'v1alpha1',
      },
    ]);
    expect(a.dhcp4()).toEqual([{ link: 'eth0', ignoreHostname: false, clientIdentifier: 'mac' }]);
  });
  it('splits time servers from PTP devices', () => {
    expect(a.timeSync()).toEqual({
      enabled: true,
      servers: ['pool.ntp.org'],
      ptpDevices: ['/dev/ptp0'],
      bootTimeout: '1m0s',
      useNTS: false,
    });
    expect(a.systemVolumeEncryption('STATE')?.provider).toBe('luks2');
    expect(a.systemVolumeEncryption('EPHEMERAL')).toBeUndefined();
  });
});

describe('accessors prefer typed documents', () => {
  // the conflicting v1alpha1 fields are dropped so the config is one validation would accept
  const base = legacy
    .replace('        hostname: legacy\n', '')
    .replace(/ {8}nameservers:\n.*\n {8}searchDomains:\n.*\n {8}extraHostEntries:\n.*\n.*\n.*\n/, '')
    .replace(/ {4}time:\n( {8}.*\n)+/, '')
    .replace(/ {4}features:\n.*\n.*\n/, '');
  const a = accessors(decode(`${base}---\n${typed}`));
  it('takes hostname, resolvers, hosts and time from their documents', () => {
    expect(a.hostname()).toEqual({ hostname: 'typed', auto: 'off' });
    expect(a.resolvers()).toEqual(['9.9.9.9']);
    expect(a.searchDomains()).toEqual(['typed.local']);
    expect(a.staticHosts()).toEqual([{ ip: '10.0.0.10', hostnames: ['cache'] }]);
    expect(a.timeServers()).toEqual(['time.google.com']);
    expect(a.hostDNS().forwardKubeDNSToHost).toBe(true);
  });
  it('lists typed links first and adds their DHCP settings', () => {
    expect(a.links().map((l) => [l.name, l.source])).toEqual([
      ['eth1', 'LinkConfig'],
      ['eth0', 'v1alpha1'],
      [undefined, 'v1alpha1'],
    ]);
    expect(a.dhcp4().map((d) => [d.link, d.routeMetric])).toEqual([
      ['eth1', 512],
      ['eth0', undefined],
    ]);
  });
  it('merges sysctls and environment key by key, the typed document winning', () => {
    expect(a.sysctls()).toEqual({ 'net.ipv4.ip_forward': '1', 'vm.swappiness': '1' });
    expect(a.env()).toEqual({ A: '1', B: '2' });
    expect(a.systemVolumeEncryption('EPHEMERAL')?.keys?.[0]?.tpm).toEqual({});
  });
  it('defaults time to the upstream server and an empty config to unknown', () => {
    const empty = accessors(decode('apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n'));
    expect(empty.machineType()).toBe('unknown');
    expect(empty.timeServers()).toEqual([DEFAULT_NTP_SERVER]);
    expect(empty.hostname()).toEqual({ auto: 'stable' });
  });
});
