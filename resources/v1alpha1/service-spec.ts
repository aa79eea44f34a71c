// ServiceSpecs.v1alpha1.keel.dev: a service the node should run, as the controllers derived it from config,
// secrets and volumes — the program, its final arguments, its environment and the files it reads. Keel's
// own type (upstream loads a fixed list of services in its boot sequence): the supervisor runs what these
// say, restarts a service alone when its spec changes, and stops one whose spec goes away. Sensitive: the
// files carry private keys.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { bool, list, num, obj, str, strs } from '../network/yaml-read.js';
import { V1ALPHA1_NAMESPACE } from './service.js';

/** A file written before each start of the service (atomically, with its mode), e.g. a certificate. */
export interface ServiceFile {
  path: string;
  /** permission bits, e.g. 0o600 */
  mode: number;
  content: string;
}

/** A directory made (with its mode, if missing) before each start: one the service writes into. */
export interface ServiceDir {
  path: string;
  mode: number;
}

/**
 * How machined tells the service is healthy: not at all (up while running), a TCP or unix connect, or
 * an HTTP GET answered 200 (first probed after `initialDelayMs`, default the supervisor's).
 */
export type ServiceHealthSpec =
  | { kind: 'none' }
  | { kind: 'tcp'; address: string }
  | { kind: 'unix'; path: string }
  | { kind: 'http'; url: string; initialDelayMs?: number };

export interface ServiceSpecSpec {
  /**
   * which runner carries it out: `process` (a supervised child of machined) for now; a kind may add its own
   * steps around the process (etcd joins its cluster before it starts)
   */
  kind: string;
  /** argv[0] is the program */
  args: string[];
  /** the complete environment */
  env: Record<string, string>;
  uid: number;
  gid: number;
  /** services that must be up first */
  dependsOn: string[];
  files: ServiceFile[];
  /** directories made before the files */
  dirs?: ServiceDir[];
  health: ServiceHealthSpec;
  /** whether ServiceStart/Stop/Restart may drive it */
  apiControl: boolean;
  /** the cgroup under machined's system tree (`system/<id>` when empty) */
  cgroup: string;
  /** settings of the kind (etcd: whether to bootstrap, where to join), plain strings */
  options: Record<string, string>;
  /** the `container` kind's image, present in containerd's namespace (nothing is pulled) */
  image?: string;
}

const healthOf = (v: unknown): ServiceHealthSpec => {
  const o = obj(v);
  if (o.kind === 'tcp') return { kind: 'tcp', address: str(o.address) };
  if (o.kind === 'unix') return { kind: 'unix', path: str(o.path) };
  if (o.kind === 'http')
    return {
      kind: 'http',
      url: str(o.url),
      ...(o.initialDelayMs ? { initialDelayMs: num(o.initialDelayMs) } : {}),
    };
  return { kind: 'none' };
};

const stringsOf = (v: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(v)).map(([k, x]) => [k, str(x)]));

export const ServiceSpec = defineResource<ServiceSpecSpec>({
  type: 'ServiceSpecs.v1alpha1.keel.dev',
  defaultNamespace: V1ALPHA1_NAMESPACE,
  sensitivity: 'sensitive',
  printColumns: [
    { name: 'Kind', jsonPath: '{.kind}' },
    { name: 'Depends On', jsonPath: '{.dependsOn}' },
  ],
  empty: () => ({
    kind: 'process',
    args: [],
    env: {},
    uid: 0,
    gid: 0,
    dependsOn: [],
    files: [],
    health: { kind: 'none' },
    apiControl: false,
    cgroup: '',
    options: {},
  }),
  fromYAML: (v) => {
    const o = obj(v);
    return {
      kind: str(o.kind) || 'process',
      args: strs(o.args),
      env: stringsOf(o.env),
      uid: num(o.uid),
      gid: num(o.gid),
      dependsOn: strs(o.dependsOn),
      files: list(o.files).map((f) => {
        const x = obj(f);
        return { path: str(x.path), mode: num(x.mode), content: str(x.content) };
      }),
      ...(list(o.dirs).length
        ? {
            dirs: list(o.dirs).map((d) => {
              const x = obj(d);
              return { path: str(x.path), mode: num(x.mode) };
            }),
          }
        : {}),
      health: healthOf(o.health),
      apiControl: bool(o.apiControl),
      cgroup: str(o.cgroup),
      options: stringsOf(o.options),
      ...(str(o.image) ? { image: str(o.image) } : {}),
    };
  },
});
export type ServiceSpec = ResourceOf<typeof ServiceSpec>;
