// What the stateful machine RPCs act on. The API room never imports machined: these are the shapes the
// node wiring hands in (the events bus, the services supervisor, the log rings, the config store,
// containerd's socket).
import type { Config } from '../../config/index.js';
import type { CoreState } from '../../cosi/state/core.js';
import type { EtcdClient } from '../../etcd/index.js';
import type { ContainerdHost } from '../containers/index.js';

/** ApplyEffect is what an accepted config does to the node. */
export type ApplyEffect = 'no-reboot' | 'reboot' | 'staged' | 'try';

/** ConfigHost holds the node's configs: the active one and the one on disk. */
export interface ConfigHost {
  /** the active config, undefined in maintenance mode */
  active(): Config | undefined;
  /** the config mode validation runs in: `container` or `metal` */
  readonly validationMode: 'container' | 'metal';
  /** true until a config is applied; everything is then applied live */
  readonly maintenance: () => boolean;
  /** apply persists (unless try) and activates per effect; `tryTimeoutMs` bounds a try */
  apply(cfg: Config, effect: ApplyEffect, opts: { actorId: string; tryTimeoutMs: number }): Promise<void>;
}

export interface EventLike {
  readonly id: string;
  readonly actorId: string;
  readonly payload: { readonly type: string };
}

/** EventSource is the machine events bus as Events reads it. */
export interface EventSource {
  watch(opts: {
    signal: AbortSignal;
    tailEvents?: number;
    tailId?: string;
    tailSeconds?: number;
    actorId?: string;
  }): AsyncIterable<EventLike>;
  /** a fresh event id (an xid), for the hello event */
  newId(): string;
}

export interface ServiceInfoLike {
  readonly id: string;
  readonly state: string;
  readonly health: {
    readonly unknown: boolean;
    readonly healthy: boolean;
    readonly lastMessage: string;
    readonly lastChange: Date | undefined;
  };
  readonly events: readonly { readonly msg: string; readonly state: string; readonly ts: Date }[];
  /** whether the service RPCs may start, stop and restart it (upstream's API*Allowed) */
  readonly apiControl?: boolean;
}

/** ServiceHost is the services supervisor as the service RPCs drive it. */
export interface ServiceHost {
  list(): readonly ServiceInfoLike[];
  info(id: string): ServiceInfoLike;
  start(...ids: string[]): void;
  stop(id: string, opts?: { signal?: AbortSignal }): Promise<void>;
}

/** LogSource is the log rings: one per service, plus machined's own. */
export interface LogSource {
  ids(): string[];
  find(
    id: string,
  ):
    | { read(opts: { signal: AbortSignal; tailLines?: number; follow?: boolean }): AsyncIterable<Buffer> }
    | undefined;
}

/** PowerHost runs the reboot and shutdown sequences; it returns once the sequence has been started. */
export interface PowerHost {
  reboot(actorId: string): void;
  shutdown(actorId: string): void;
}

/** ClientIssuer mints client certificates from the OS CA. */
export interface ClientIssuer {
  /** PEM of the OS CA */
  caCrt(): string | undefined;
  issue(roles: readonly string[], ttlMs: number): Promise<{ crt: string; key: string }>;
  readonly endpoints: readonly string[];
  readonly contextName: string;
}

/** ResetHost checks a Reset request against the node and starts its sequence (ApiError when it cannot). */
export interface ResetHost {
  reset(req: Record<string, unknown>, actorId: string): Promise<void>;
}

/** MetaHostLike is the node's META as MetaWrite and MetaDelete change it. */
export interface MetaHostLike {
  /** set stores a tag; a MetaError 'bad-tag' or 'too-large' when it cannot */
  set(tag: number, value: Uint8Array): Promise<void>;
  /** delete forgets a tag; false when it was not there */
  delete(tag: number): Promise<boolean>;
}

export interface StatefulDeps {
  readonly config: ConfigHost;
  readonly events?: EventSource;
  readonly services?: ServiceHost;
  readonly logs?: LogSource;
  readonly power?: PowerHost;
  readonly clients?: ClientIssuer;
  /** etcd; without it the Etcd* and Bootstrap RPCs stay unimplemented */
  readonly etcd?: EtcdHost;
  /** Reset; absent on a container node, which has no disks */
  readonly reset?: ResetHost;
  /** the node's containerd; without it Containers, the image lists and CRI logs stay unimplemented */
  readonly containerd?: ContainerdHost;
  /** the node's META; 'unsupported' on a container node, which has none */
  readonly meta?: MetaHostLike | 'unsupported';
  /**
   * the node's COSI state, read-only: the cluster health check reads this node's facts there (and its
   * API client certificate to ask other nodes); without it, or services and etcd, HealthCheck stays
   * unimplemented
   */
  readonly state?: Pick<CoreState, 'get' | 'list'>;
  /** new actor ids for requests that start something; default random UUIDs */
  readonly newActorId?: () => string;
}

/**
 * EtcdHost is etcd on this node as the Etcd* and Bootstrap RPCs need it. Each method refuses, with
 * upstream's code and words, what this node cannot do (a worker runs no etcd).
 */
export interface EtcdHost {
  /**
   * ready refuses a worker (Unimplemented `<op> is only available on control plane nodes`) and a node whose
   * etcd is not configured yet; the clients below need it first
   */
  ready(op: string): Promise<void>;
  /** marks this node to start a new cluster: refused on a worker, before etcd can start, or with data */
  bootstrap(req: { recoverEtcd: boolean; recoverSkipHashCheck: boolean }, signal: AbortSignal): Promise<void>;
  /** a client to this node's member, or to the cluster through every control-plane endpoint known */
  client(scope: 'local' | 'cluster'): EtcdClient;
  /** this node's member ID (decimal), once its member runs */
  localMemberId(signal: AbortSignal): Promise<string>;
  /** stores an uploaded snapshot where `bootstrap --recover-from` restores it from */
  storeRecoverySnapshot(chunks: AsyncIterable<Buffer>, signal: AbortSignal): Promise<void>;
}
