// MachineService.Bootstrap and the Etcd* RPCs, on the node's EtcdHost: member list and removal, leaving
// the cluster, forfeiting leadership, status, alarms, defragmentation, streamed snapshots and the upload
// of one to recover from. etcd's own refusals keep their gRPC code, with upstream's words around them.
import { type EtcdClient, EtcdError, type EtcdMember } from '../../etcd/index.js';
import { ApiError, type ApiErrorCode } from '../errors.js';
import {
  type ApiMessage,
  clientStreamHandler,
  type Handler,
  serverStreamHandler,
  unaryHandler,
} from '../handlers.js';
import type { EtcdHost } from './deps.js';

const M = '/machine.MachineService/';
/** the chunk size of snapshot streams, as upstream's chunker */
const CHUNK = 4096;

const CODES: Readonly<Record<number, ApiErrorCode>> = {
  3: 'invalid-argument',
  5: 'not-found',
  6: 'already-exists',
  9: 'failed-precondition',
  14: 'unavailable',
};

/** wrapped keeps an etcd error's code (NotFound for an unknown member, Unavailable when it is down). */
function wrapped(what: string, e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = e instanceof EtcdError ? (CODES[e.code] ?? 'internal') : 'internal';
  return new ApiError(code, `${what}: ${(e as Error).message}`, { cause: e });
}

/** withClient runs fn on a client and always closes it. */
async function withClient<T>(
  etcd: EtcdHost,
  scope: 'local' | 'cluster',
  fn: (c: EtcdClient) => Promise<T>,
): Promise<T> {
  const client = etcd.client(scope);
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

/**
 * listEtcdMembers is EtcdMemberList's answer before it is put in messages: this node's member alone, or the
 * cluster's members as its etcd sees them. The cluster health check reads the same list.
 */
export async function listEtcdMembers(etcd: EtcdHost, scope: 'local' | 'cluster'): Promise<EtcdMember[]> {
  await etcd.ready('member list');
  return withClient(etcd, scope, (c) => c.memberList()).catch((e: unknown) => {
    throw wrapped('failed to list etcd members', e);
  });
}

const alarmMessages = (alarms: readonly { memberId: string; alarm: string }[]) =>
  alarms.map((a) => ({ member_id: a.memberId, alarm: a.alarm }));

export function etcdHandlers(etcd: EtcdHost): Record<string, Handler> {
  return {
    [`${M}Bootstrap`]: unaryHandler(async (req, ctx) => {
      await etcd.bootstrap(
        {
          recoverEtcd: req.recover_etcd === true,
          recoverSkipHashCheck: req.recover_skip_hash_check === true,
        },
        ctx.signal,
      );
      return { messages: [{}] };
    }),

    [`${M}EtcdMemberList`]: unaryHandler(async (req) => {
      const members = await listEtcdMembers(etcd, req.query_local === true ? 'local' : 'cluster');
      return {
        messages: [
          {
            legacy_members: members.map((m) => m.name),
            members: members.map((m) => ({
              id: m.id,
              hostname: m.name,
              peer_urls: m.peerURLs,
              client_urls: m.clientURLs,
              is_learner: m.isLearner,
            })),
          },
        ],
      };
    }),

    [`${M}EtcdRemoveMemberByID`]: unaryHandler(async (req) => {
      await etcd.ready('etcd remove member');
      const id = String(req.member_id ?? '0');
      await withClient(etcd, 'cluster', (c) => c.memberRemove(id)).catch((e: unknown) => {
        throw wrapped('failed to remove member', e);
      });
      return { messages: [{}] };
    }),

    [`${M}EtcdLeaveCluster`]: unaryHandler(async (_req, ctx) => {
      await etcd.ready('etcd leave');
      const self = await etcd.localMemberId(ctx.signal);
      await withClient(etcd, 'cluster', (c) => c.memberRemove(self)).catch((e: unknown) => {
        throw wrapped('failed to leave cluster', e);
      });
      return { messages: [{}] };
    }),

    [`${M}EtcdForfeitLeadership`]: unaryHandler(async (_req, ctx) => {
      await etcd.ready('etcd forfeit leadership');
      const self = await etcd.localMemberId(ctx.signal);
      const member = await withClient(etcd, 'cluster', async (c) => {
        const status = await c.status();
        if (status.leader !== self) return '';
        // the first started voting member that is not this one takes over
        const next = (await c.memberList()).find((m) => m.id !== self && !m.isLearner && m.name !== '');
        if (!next) throw new ApiError('failed-precondition', 'no other voting member to hand leadership to');
        await withClient(etcd, 'local', (local) => local.moveLeader(next.id));
        return next.name;
      }).catch((e: unknown) => {
        throw wrapped('failed to forfeit leadership', e);
      });
      return { messages: [{ member }] };
    }),

    [`${M}EtcdSnapshot`]: serverStreamHandler(async (_req, send, ctx) => {
      await etcd.ready('etcd snapshot');
      await withClient(etcd, 'local', async (c) => {
        for await (const blob of c.snapshot(ctx.signal))
          for (let i = 0; i < blob.length; i += CHUNK) await send({ bytes: blob.subarray(i, i + CHUNK) });
      }).catch((e: unknown) => {
        throw wrapped('failed reading etcd snapshot', e);
      });
    }),

    [`${M}EtcdRecover`]: clientStreamHandler(async (reqs, ctx) => {
      // the host checks, with the words upstream uses for a node not ready to recover
      async function* chunks(): AsyncGenerator<Buffer> {
        for await (const r of reqs as AsyncIterable<ApiMessage>)
          if (r.bytes) yield Buffer.from(r.bytes as Uint8Array);
      }
      await etcd.storeRecoverySnapshot(chunks(), ctx.signal);
      return { messages: [{}] };
    }),

    [`${M}EtcdAlarmList`]: unaryHandler(async () => {
      await etcd.ready('etcd alarm list');
      const alarms = await withClient(etcd, 'local', (c) => c.alarms()).catch((e: unknown) => {
        throw wrapped('failed to list etcd alarms', e);
      });
      return { messages: [{ member_alarms: alarmMessages(alarms) }] };
    }),

    [`${M}EtcdAlarmDisarm`]: unaryHandler(async () => {
      await etcd.ready('etcd alarm list');
      const alarms = await withClient(etcd, 'local', (c) => c.disarm({ memberId: '0', alarm: 'NONE' })).catch(
        (e: unknown) => {
          throw wrapped('failed to disarm etcd alarm', e);
        },
      );
      return { messages: [{ member_alarms: alarmMessages(alarms) }] };
    }),

    [`${M}EtcdDefragment`]: unaryHandler(async () => {
      await etcd.ready('etcd defragment');
      await withClient(etcd, 'local', (c) => c.defragment()).catch((e: unknown) => {
        throw wrapped('failed to defragment etcd', e);
      });
      return { messages: [{}] };
    }),

    [`${M}EtcdStatus`]: unaryHandler(async () => {
      await etcd.ready('etcd status');
      const s = await withClient(etcd, 'local', (c) => c.status()).catch((e: unknown) => {
        throw wrapped('failed to query etcd status', e);
      });
      return {
        messages: [
          {
            member_status: {
              member_id: s.memberId,
              protocol_version: s.version,
              db_size: String(s.dbSize),
              db_size_in_use: String(s.dbSizeInUse),
              leader: s.leader,
              raft_index: s.raftIndex,
              raft_term: s.raftTerm,
              raft_applied_index: s.raftAppliedIndex,
              errors: s.errors,
              is_learner: s.isLearner,
            },
          },
        ],
      };
    }),
  };
}
