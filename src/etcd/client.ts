// EtcdClient: the etcd v3 calls Keel makes (keys, members, maintenance, snapshots; transactions, leases and
// watches through call and duplex) over gRPC with mutual TLS. It is given every endpoint it may use and
// sticks to the first that answers, moving on when one is unreachable, as etcd's own client balances; an
// error etcd gives keeps its gRPC code.
import {
  ChannelCredentials,
  Client,
  type ClientDuplexStream,
  Metadata,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import type protobuf from 'protobufjs';
import { checkNamed, serverNameOptions } from '../pki/server-name.js';
import { EtcdError } from './errors.js';
import { etcdType } from './schema.js';

export interface EtcdTLS {
  /** PEM: the etcd CA, and the client certificate and key it issued */
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

export interface EtcdClientOptions {
  /** `https://host:2379` URLs or `host:port` */
  readonly endpoints: readonly string[];
  readonly tls: EtcdTLS;
  /** per call, default 10 s */
  readonly timeoutMs?: number;
}

export interface EtcdMember {
  /** decimal, as 64-bit IDs do not fit a number */
  readonly id: string;
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly clientURLs: readonly string[];
  readonly isLearner: boolean;
}

export interface EtcdStatus {
  readonly memberId: string;
  readonly version: string;
  readonly dbSize: number;
  readonly dbSizeInUse: number;
  readonly leader: string;
  readonly raftIndex: string;
  readonly raftTerm: string;
  readonly raftAppliedIndex: string;
  readonly errors: readonly string[];
  readonly isLearner: boolean;
}

export interface EtcdAlarm {
  readonly memberId: string;
  readonly alarm: 'NONE' | 'NOSPACE' | 'CORRUPT';
}

/** Plain is a message as protobufjs gives and takes it: etcd's field names, 64-bit integers as strings. */
export type Plain = Record<string, unknown>;

const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, defaults: true, arrays: true };

/** hostPort takes `https://10.0.0.1:2379` or `10.0.0.1:2379` to the gRPC target `10.0.0.1:2379`. */
export function hostPort(endpoint: string): string {
  const m = /^[a-z]+:\/\/([^/]+)/.exec(endpoint);
  return m ? m[1]! : endpoint;
}

export class EtcdClient {
  readonly #clients: Client[];
  readonly #targets: string[];
  readonly #timeoutMs: number;
  #current = 0;

  constructor(opts: EtcdClientOptions) {
    if (opts.endpoints.length === 0)
      throw new EtcdError(status.INVALID_ARGUMENT, 'etcd client: no endpoints given');
    const creds = ChannelCredentials.createSsl(
      Buffer.from(opts.tls.ca),
      Buffer.from(opts.tls.key),
      Buffer.from(opts.tls.cert),
      { checkServerIdentity: checkNamed },
    );
    this.#targets = opts.endpoints.map(hostPort);
    // one channel per endpoint: a single channel would pick among them without telling which answered
    this.#clients = this.#targets.map(
      (t) => new Client(t, creds, { ...serverNameOptions(t), 'grpc.max_receive_message_length': -1 }),
    );
    this.#timeoutMs = opts.timeoutMs ?? 10_000;
  }

  close(): void {
    for (const c of this.#clients) c.close();
  }

  async get(key: string | Buffer): Promise<Buffer | undefined> {
    const r = await this.#unary('KV', 'Range', 'RangeRequest', 'RangeResponse', { key: Buffer.from(key) });
    const kv = (r.kvs as Plain[])[0];
    return kv ? Buffer.from(kv.value as Uint8Array) : undefined;
  }

  async put(key: string | Buffer, value: string | Buffer): Promise<void> {
    await this.#unary('KV', 'Put', 'PutRequest', 'PutResponse', {
      key: Buffer.from(key),
      value: Buffer.from(value),
    });
  }

  async memberList(): Promise<EtcdMember[]> {
    // linearizable: a member just added or removed is seen at once
    const r = await this.#unary('Cluster', 'MemberList', 'MemberListRequest', 'MemberListResponse', {
      linearizable: true,
    });
    return (r.members as Plain[]).map(memberOf);
  }

  async memberAddAsLearner(
    peerURLs: readonly string[],
  ): Promise<{ member: EtcdMember; members: EtcdMember[] }> {
    const r = await this.#unary('Cluster', 'MemberAdd', 'MemberAddRequest', 'MemberAddResponse', {
      peerURLs: [...peerURLs],
      isLearner: true,
    });
    return { member: memberOf(r.member as Plain), members: (r.members as Plain[]).map(memberOf) };
  }

  async memberRemove(id: string): Promise<void> {
    await this.#unary('Cluster', 'MemberRemove', 'MemberRemoveRequest', 'MemberRemoveResponse', { ID: id });
  }

  async memberPromote(id: string): Promise<void> {
    await this.#unary('Cluster', 'MemberPromote', 'MemberPromoteRequest', 'MemberPromoteResponse', {
      ID: id,
    });
  }

  async status(): Promise<EtcdStatus> {
    const r = await this.#unary('Maintenance', 'Status', 'StatusRequest', 'StatusResponse', {});
    return {
      memberId: String((r.header as Plain | null)?.member_id ?? '0'),
      version: String(r.version),
      dbSize: Number(r.dbSize),
      dbSizeInUse: Number(r.dbSizeInUse),
      leader: String(r.leader),
      raftIndex: String(r.raftIndex),
      raftTerm: String(r.raftTerm),
      raftAppliedIndex: String(r.raftAppliedIndex),
      errors: (r.errors as string[]).map(String),
      isLearner: Boolean(r.isLearner),
    };
  }

  async alarms(): Promise<EtcdAlarm[]> {
    const r = await this.#unary('Maintenance', 'Alarm', 'AlarmRequest', 'AlarmResponse', { action: 'GET' });
    return (r.alarms as Plain[]).map((a) => ({
      memberId: String(a.memberID),
      alarm: a.alarm as EtcdAlarm['alarm'],
    }));
  }

  /** disarm deactivates the given alarm (all members' when memberId is 0). */
  async disarm(a: EtcdAlarm): Promise<EtcdAlarm[]> {
    const r = await this.#unary('Maintenance', 'Alarm', 'AlarmRequest', 'AlarmResponse', {
      action: 'DEACTIVATE',
      memberID: a.memberId,
      alarm: a.alarm,
    });
    return (r.alarms as Plain[]).map((x) => ({
      memberId: String(x.memberID),
      alarm: x.alarm as EtcdAlarm['alarm'],
    }));
  }

  async defragment(): Promise<void> {
    // defragmenting rewrites the whole database: minutes on a large one
    await this.#unary('Maintenance', 'Defragment', 'DefragmentRequest', 'DefragmentResponse', {}, 5 * 60_000);
  }

  async moveLeader(targetId: string): Promise<void> {
    await this.#unary('Maintenance', 'MoveLeader', 'MoveLeaderRequest', 'MoveLeaderResponse', {
      targetID: targetId,
    });
  }

  /**
   * call makes one unary call of etcd's API by service and method (`KV`, `Txn` takes `TxnRequest` and gives
   * `TxnResponse`), for the calls the named methods above do not cover (transactions, leases).
   */
  call(service: string, method: string, value: Plain, opts: { signal?: AbortSignal } = {}): Promise<Plain> {
    return this.#unary(
      service,
      method,
      `${method}Request`,
      `${method}Response`,
      value,
      this.#timeoutMs,
      opts,
    );
  }

  /** duplex opens a bidirectional stream (`Lease`/`LeaseKeepAlive`, `Watch`/`Watch`) on the endpoint in use. */
  duplex(service: string, method: string): ClientDuplexStream<Plain, Plain> {
    const req = etcdType(`${method}Request`);
    const res = etcdType(`${method}Response`);
    return this.#clients[this.#current]!.makeBidiStreamRequest(
      `/etcdserverpb.${service}/${method}`,
      (v: Plain) => Buffer.from(req.encode(req.fromObject(v)).finish()),
      (b: Buffer) => res.toObject(res.decode(b), TO_OBJECT),
      new Metadata(),
      {},
    );
  }

  /** snapshot streams the member's whole backend, chunk by chunk, from the endpoint that answers first. */
  async *snapshot(signal?: AbortSignal): AsyncGenerator<Buffer> {
    const req = etcdType('SnapshotRequest');
    const res = etcdType('SnapshotResponse');
    const client = this.#clients[this.#current]!;
    const call = client.makeServerStreamRequest(
      '/etcdserverpb.Maintenance/Snapshot',
      (v: Plain) => Buffer.from(req.encode(req.fromObject(v)).finish()),
      (b: Buffer) => res.toObject(res.decode(b), TO_OBJECT),
      {},
      new Metadata(),
      {},
    );
    const cancel = () => call.cancel();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      for await (const chunk of call as AsyncIterable<Plain>) yield Buffer.from(chunk.blob as Uint8Array);
    } catch (e) {
      throw errorOf(e, `snapshot from ${this.#targets[this.#current]}`);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  async #unary(
    service: string,
    method: string,
    reqName: string,
    resName: string,
    value: Plain,
    timeoutMs = this.#timeoutMs,
    { signal }: { signal?: AbortSignal } = {},
  ): Promise<Plain> {
    signal?.throwIfAborted();
    const req = etcdType(reqName);
    const res = etcdType(resName);
    const path = `/etcdserverpb.${service}/${method}`;
    let last: unknown;
    for (let tried = 0; tried < this.#clients.length; tried++) {
      const i = (this.#current + tried) % this.#clients.length;
      try {
        const out = await new Promise<Plain>((resolve, reject) => {
          const call = this.#clients[i]!.makeUnaryRequest(
            path,
            (v: Plain) => Buffer.from(req.encode(req.fromObject(v)).finish()),
            (b: Buffer) => res.toObject(res.decode(b), TO_OBJECT),
            value,
            new Metadata(),
            { deadline: Date.now() + timeoutMs },
            (err, r) => {
              signal?.removeEventListener('abort', cancel);
              if (err) reject(err);
              else resolve(r as Plain);
            },
          );
          const cancel = () => call.cancel();
          signal?.addEventListener('abort', cancel, { once: true });
        });
        this.#current = i;
        return out;
      } catch (e) {
        last = e;
        // only an unreachable member sends the call elsewhere: etcd's own refusals are answers
        if ((e as ServiceError).code !== status.UNAVAILABLE || signal?.aborted) break;
      }
    }
    throw errorOf(last, `${method} on ${this.#targets.join(', ')}`);
  }
}

function memberOf(m: Plain): EtcdMember {
  return {
    id: String(m.ID),
    name: String(m.name),
    peerURLs: (m.peerURLs as string[]).map(String),
    clientURLs: (m.clientURLs as string[]).map(String),
    isLearner: Boolean(m.isLearner),
  };
}

function errorOf(e: unknown, what: string): EtcdError {
  const se = e as Partial<ServiceError>;
  const code = typeof se.code === 'number' ? se.code : status.UNKNOWN;
  return new EtcdError(code, `etcd: ${what}: ${se.details || (e as Error).message}`, { cause: e });
}
