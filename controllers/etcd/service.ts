// etcd.ServiceController: the ServiceSpec `etcd` — the etcd process, its fixed arguments as upstream's
// (TLS everywhere, the node's name and addresses), the extraArgs the config may add, and the PKI files
// it reads — from EtcdSpec, the etcd certificates, the bootstrap request and the components layer. A change to any of them
// changes the spec, and so restarts etcd alone. How the member starts (new cluster, join as a learner,
// or a plain restart) is decided by the etcd kind when it starts, from the data directory and these
// options, as upstream decides in its service's pre-start.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import {
  ETCD_BOOTSTRAP_ID,
  ETCD_SPEC_ID,
  EtcdBootstrap,
  type EtcdBootstrapSpec,
  EtcdSpec,
  type EtcdSpecSpec,
} from '../../resources/etcd/index.js';
import { COMPONENTS_LAYER_ID, ComponentsLayer } from '../../resources/runtime/index.js';
import { ETCD_ID, ETCD_ROOT_ID, Etcd, type EtcdCertsSpec, EtcdRoot } from '../../resources/secrets/index.js';
import { ServiceSpec, type ServiceSpecSpec } from '../../resources/v1alpha1/index.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';

export const ETCD_SERVICE_CONTROLLER = 'etcd.ServiceController';
export const ETCD_SERVICE_ID = 'etcd';
export const ETCD_CLIENT_PORT = 2379;
export const ETCD_PEER_PORT = 2380;
/** upstream's etcd user and group */
export const ETCD_UID = 60;

export interface EtcdServicePaths {
  /** /var/lib/etcd on a node */
  readonly dataDir: string;
  /** /system/secrets/etcd on a node */
  readonly secretsDir: string;
}

/** where etcd's files are: its binaries (from the components layer) and its directories */
export interface EtcdFiles extends EtcdServicePaths {
  readonly etcd: string;
  readonly etcdutl: string;
}

/** Arguments Keel sets itself: a config's extraArgs cannot override them (validation refuses them too). */
export const ETCD_FIXED_ARGS = [
  'name',
  'auto-tls',
  'peer-auto-tls',
  'data-dir',
  'listen-peer-urls',
  'listen-client-urls',
  'client-cert-auth',
  'cert-file',
  'key-file',
  'trusted-ca-file',
  'peer-client-cert-auth',
  'peer-cert-file',
  'peer-key-file',
  'peer-trusted-ca-file',
] as const;

export function etcdServiceController(paths: EtcdServicePaths) {
  return defineController({
    name: ETCD_SERVICE_CONTROLLER,
    inputs: [
      input(EtcdSpec, { id: ETCD_SPEC_ID }),
      input(Etcd, { id: ETCD_ID }),
      input(EtcdRoot, { id: ETCD_ROOT_ID }),
      input(EtcdBootstrap, { id: ETCD_BOOTSTRAP_ID }),
      input(MachineConfig, { id: MACHINE_CONFIG_ID }),
      input(ComponentsLayer, { id: COMPONENTS_LAYER_ID }),
    ],
    outputs: [output(ServiceSpec, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const spec = await rt.getOrNull(EtcdSpec, ETCD_SPEC_ID, { signal });
        const certs = await rt.getOrNull(Etcd, ETCD_ID, { signal });
        const root = await rt.getOrNull(EtcdRoot, ETCD_ROOT_ID, { signal });
        const bootstrap = await rt.getOrNull(EtcdBootstrap, ETCD_BOOTSTRAP_ID, { signal });
        const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
        const endpoint = cfg ? accessors(configOf(cfg.spec)).controlPlaneEndpoint() : undefined;
        const ca = root?.spec.etcdCA?.crt;
        // etcd's binaries come with the components layer: without it this control plane runs no etcd
        const layer = await rt.getOrNull(ComponentsLayer, COMPONENTS_LAYER_ID, { signal });
        const files = layer
          ? {
              ...paths,
              etcd: `${layer.spec.root}/usr/bin/etcd`,
              etcdutl: `${layer.spec.root}/usr/bin/etcdutl`,
            }
          : undefined;
        const next =
          spec && certs && ca && files && complete(certs.spec)
            ? etcdServiceSpec({
                spec: spec.spec,
                certs: certs.spec,
                ca,
                bootstrap: bootstrap?.spec,
                endpoint,
                paths: files,
              })
            : undefined;
        if (next) await rt.modify(ServiceSpec, ETCD_SERVICE_ID, () => next, { signal });
        else await destroyIfPresent(rt, ServiceSpec.pointer(ETCD_SERVICE_ID), { signal });
        rt.resetBackoff();
      }
    },
  });
}

const complete = (c: EtcdCertsSpec) => c.etcd !== null && c.etcdPeer !== null && c.etcdAdmin !== null;

/** url is `https://host:port`, with an IPv6 host in brackets. */
export const etcdURL = (host: string, port: number): string =>
  `https://${host.includes(':') ? `[${host}]` : host}:${port}`;

export interface EtcdServiceInputs {
  readonly spec: EtcdSpecSpec;
  readonly certs: EtcdCertsSpec;
  readonly ca: string;
  readonly bootstrap: EtcdBootstrapSpec | undefined;
  /** cluster.controlPlane.endpoint: where a joining member looks for the cluster */
  readonly endpoint: string | undefined;
  readonly paths: EtcdFiles;
}

/** etcdServiceSpec is the whole service, as data: pure, so one test pins every argument. */
export function etcdServiceSpec(i: EtcdServiceInputs): ServiceSpecSpec {
  const { spec, certs, paths } = i;
  const dir = paths.secretsDir;
  const file = (name: string) => `${dir}/${name}`;
  const urls = (hosts: readonly string[], port: number) => hosts.map((h) => etcdURL(h, port)).join(',');
  const peerURLs = urls(spec.advertisedAddresses, ETCD_PEER_PORT);
  const overridable: Record<string, string> = {
    'initial-advertise-peer-urls': peerURLs,
    'advertise-client-urls': urls(spec.advertisedAddresses, ETCD_CLIENT_PORT),
  };
  const fixed: [string, string][] = [
    ['name', spec.name],
    ['auto-tls', 'false'],
    ['peer-auto-tls', 'false'],
    ['data-dir', paths.dataDir],
    ['listen-peer-urls', urls(spec.listenPeerAddresses, ETCD_PEER_PORT)],
    ['listen-client-urls', urls(spec.listenClientAddresses, ETCD_CLIENT_PORT)],
    ['client-cert-auth', 'true'],
    ['cert-file', file('server.crt')],
    ['key-file', file('server.key')],
    ['trusted-ca-file', file('ca.crt')],
    ['peer-client-cert-auth', 'true'],
    ['peer-cert-file', file('peer.crt')],
    ['peer-key-file', file('peer.key')],
    ['peer-trusted-ca-file', file('ca.crt')],
    ['feature-gates', 'InitialCorruptCheck=true,CompactHashCheck=true'],
    ['watch-progress-notify-interval', '5s'],
    ['tls-min-version', 'TLS1.3'],
  ];
  const fixedNames = new Set<string>(ETCD_FIXED_ARGS);
  const extra = Object.entries({ ...overridable, ...spec.extraArgs })
    .filter(([k]) => !fixedNames.has(k))
    .sort(([a], [b]) => a.localeCompare(b));
  const pair = (c: { crt: string; key: string } | null, name: string) =>
    c
      ? [
          { path: file(`${name}.crt`), mode: 0o400, content: c.crt },
          { path: file(`${name}.key`), mode: 0o400, content: c.key },
        ]
      : [];
  const loopback = spec.listenClientAddresses.find((a) => a === '::' || a === '::1') ? '::1' : '127.0.0.1';
  const host = endpointHost(i.endpoint);
  return {
    kind: 'etcd',
    args: [paths.etcd, ...fixed.map(([k, v]) => `--${k}=${v}`), ...extra.map(([k, v]) => `--${k}=${v}`)],
    env: { PATH: '/usr/bin:/usr/sbin:/bin:/sbin' },
    uid: ETCD_UID,
    gid: ETCD_UID,
    dependsOn: [],
    files: [
      { path: file('ca.crt'), mode: 0o400, content: i.ca },
      ...pair(certs.etcd, 'server'),
      ...pair(certs.etcdPeer, 'peer'),
      ...pair(certs.etcdAdmin, 'admin'),
    ],
    health: { kind: 'none' },
    apiControl: true,
    cgroup: '',
    options: {
      name: spec.name,
      peerURLs,
      dataDir: paths.dataDir,
      etcdutl: paths.etcdutl,
      localEndpoint: etcdURL(loopback, ETCD_CLIENT_PORT),
      caFile: file('ca.crt'),
      certFile: file('admin.crt'),
      keyFile: file('admin.key'),
      ...(host ? { joinHost: host } : {}),
      ...(i.bootstrap ? { bootstrap: 'true' } : {}),
      ...(i.bootstrap?.recoverFromSnapshot ? { recover: 'true' } : {}),
      ...(i.bootstrap?.recoverSkipHashCheck ? { recoverSkipHashCheck: 'true' } : {}),
    },
  };
}

/** endpointHost is the host of cluster.controlPlane.endpoint (`https://10.5.0.2:6443` → `10.5.0.2`). */
export function endpointHost(endpoint: string | undefined): string | undefined {
  if (!endpoint) return undefined;
  try {
    return new URL(endpoint).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

/** etcdClientTLS is machined's etcd client identity, read from the files the etcd spec writes. */
export function etcdClientTLS(spec: ServiceSpecSpec): { ca: string; cert: string; key: string } {
  const content = (path: string | undefined) => spec.files.find((f) => f.path === path)?.content ?? '';
  return {
    ca: content(spec.options.caFile),
    cert: content(spec.options.certFile),
    key: content(spec.options.keyFile),
  };
}
