// The slice of etcd's v3 gRPC API (package etcdserverpb, with mvccpb.KeyValue) that Keel calls, as a
// protobufjs descriptor: message and field names and numbers exactly as etcd's rpc.proto and kv.proto.
// Built in code rather than loaded from a .proto file, so the single executable needs no file for it.
import protobuf from 'protobufjs';

type Fields = Record<string, { type: string; id: number; rule?: 'repeated' }>;
const msg = (fields: Fields) => ({ fields });
const header = { header: { type: 'ResponseHeader', id: 1 } };

const member = msg({
  ID: { type: 'uint64', id: 1 },
  name: { type: 'string', id: 2 },
  peerURLs: { type: 'string', id: 3, rule: 'repeated' },
  clientURLs: { type: 'string', id: 4, rule: 'repeated' },
  isLearner: { type: 'bool', id: 5 },
});
const members = (id: number) => ({ members: { type: 'Member', id, rule: 'repeated' as const } });

const ETCD_DESCRIPTOR = {
  nested: {
    mvccpb: {
      nested: {
        KeyValue: msg({
          key: { type: 'bytes', id: 1 },
          create_revision: { type: 'int64', id: 2 },
          mod_revision: { type: 'int64', id: 3 },
          version: { type: 'int64', id: 4 },
          value: { type: 'bytes', id: 5 },
          lease: { type: 'int64', id: 6 },
        }),
      },
    },
    etcdserverpb: {
      nested: {
        ResponseHeader: msg({
          cluster_id: { type: 'uint64', id: 1 },
          member_id: { type: 'uint64', id: 2 },
          revision: { type: 'int64', id: 3 },
          raft_term: { type: 'uint64', id: 4 },
        }),
        RangeRequest: msg({
          key: { type: 'bytes', id: 1 },
          range_end: { type: 'bytes', id: 2 },
          limit: { type: 'int64', id: 3 },
          serializable: { type: 'bool', id: 7 },
        }),
        RangeResponse: msg({
          ...header,
          kvs: { type: 'mvccpb.KeyValue', id: 2, rule: 'repeated' },
          more: { type: 'bool', id: 3 },
          count: { type: 'int64', id: 4 },
        }),
        PutRequest: msg({
          key: { type: 'bytes', id: 1 },
          value: { type: 'bytes', id: 2 },
          lease: { type: 'int64', id: 3 },
        }),
        PutResponse: msg({ ...header }),
        Member: member,
        MemberAddRequest: msg({
          peerURLs: { type: 'string', id: 1, rule: 'repeated' },
          isLearner: { type: 'bool', id: 2 },
        }),
        MemberAddResponse: msg({ ...header, member: { type: 'Member', id: 2 }, ...members(3) }),
        MemberRemoveRequest: msg({ ID: { type: 'uint64', id: 1 } }),
        MemberRemoveResponse: msg({ ...header, ...members(2) }),
        MemberListRequest: msg({ linearizable: { type: 'bool', id: 1 } }),
        MemberListResponse: msg({ ...header, ...members(2) }),
        MemberPromoteRequest: msg({ ID: { type: 'uint64', id: 1 } }),
        MemberPromoteResponse: msg({ ...header, ...members(2) }),
        DefragmentRequest: msg({}),
        DefragmentResponse: msg({ ...header }),
        MoveLeaderRequest: msg({ targetID: { type: 'uint64', id: 1 } }),
        MoveLeaderResponse: msg({ ...header }),
        AlarmType: { values: { NONE: 0, NOSPACE: 1, CORRUPT: 2 } },
        AlarmRequest: {
          fields: {
            action: { type: 'AlarmAction', id: 1 },
            memberID: { type: 'uint64', id: 2 },
            alarm: { type: 'AlarmType', id: 3 },
          },
          nested: { AlarmAction: { values: { GET: 0, ACTIVATE: 1, DEACTIVATE: 2 } } },
        },
        AlarmMember: msg({ memberID: { type: 'uint64', id: 1 }, alarm: { type: 'AlarmType', id: 2 } }),
        AlarmResponse: msg({ ...header, alarms: { type: 'AlarmMember', id: 2, rule: 'repeated' } }),
        StatusRequest: msg({}),
        StatusResponse: msg({
          ...header,
          version: { type: 'string', id: 2 },
          dbSize: { type: 'int64', id: 3 },
          leader: { type: 'uint64', id: 4 },
          raftIndex: { type: 'uint64', id: 5 },
          raftTerm: { type: 'uint64', id: 6 },
          raftAppliedIndex: { type: 'uint64', id: 7 },
          errors: { type: 'string', id: 8, rule: 'repeated' },
          dbSizeInUse: { type: 'int64', id: 9 },
          isLearner: { type: 'bool', id: 10 },
          storageVersion: { type: 'string', id: 11 },
          dbSizeQuota: { type: 'int64', id: 12 },
        }),
        SnapshotRequest: msg({}),
        SnapshotResponse: msg({
          ...header,
          remaining_bytes: { type: 'uint64', id: 2 },
          blob: { type: 'bytes', id: 3 },
          version: { type: 'string', id: 4 },
        }),
      },
    },
  },
};

const root = protobuf.Root.fromJSON(ETCD_DESCRIPTOR);

/** etcdType looks a message type of etcdserverpb up by its short name. */
export const etcdType = (name: string): protobuf.Type => root.lookupType(`etcdserverpb.${name}`);
