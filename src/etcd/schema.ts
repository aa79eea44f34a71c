// The slice of etcd's v3 gRPC API (package etcdserverpb, with mvccpb's KeyValue and Event) that Keel
// calls, as a protobufjs descriptor: message and field names and numbers exactly as etcd's rpc.proto and
// kv.proto.
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
        Event: {
          fields: {
            type: { type: 'EventType', id: 1 },
            kv: { type: 'KeyValue', id: 2 },
            prev_kv: { type: 'KeyValue', id: 3 },
          },
          nested: { EventType: { values: { PUT: 0, DELETE: 1 } } },
        },
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
        RangeRequest: {
          fields: {
            key: { type: 'bytes', id: 1 },
            range_end: { type: 'bytes', id: 2 },
            limit: { type: 'int64', id: 3 },
            sort_order: { type: 'SortOrder', id: 5 },
            sort_target: { type: 'SortTarget', id: 6 },
            serializable: { type: 'bool', id: 7 },
            max_create_revision: { type: 'int64', id: 13 },
          },
          nested: {
            SortOrder: { values: { NONE: 0, ASCEND: 1, DESCEND: 2 } },
            SortTarget: { values: { KEY: 0, VERSION: 1, CREATE: 2, MOD: 3, VALUE: 4 } },
          },
        },
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
        DeleteRangeRequest: msg({ key: { type: 'bytes', id: 1 }, range_end: { type: 'bytes', id: 2 } }),
        DeleteRangeResponse: msg({ ...header, deleted: { type: 'int64', id: 2 } }),
        // a transaction's ops: one of the oneof's fields is set (nested transactions are not used)
        RequestOp: msg({
          request_range: { type: 'RangeRequest', id: 1 },
          request_put: { type: 'PutRequest', id: 2 },
          request_delete_range: { type: 'DeleteRangeRequest', id: 3 },
        }),
        ResponseOp: msg({
          response_range: { type: 'RangeResponse', id: 1 },
          response_put: { type: 'PutResponse', id: 2 },
          response_delete_range: { type: 'DeleteRangeResponse', id: 3 },
        }),
        Compare: {
          fields: {
            result: { type: 'CompareResult', id: 1 },
            target: { type: 'CompareTarget', id: 2 },
            key: { type: 'bytes', id: 3 },
            version: { type: 'int64', id: 4 },
            create_revision: { type: 'int64', id: 5 },
            mod_revision: { type: 'int64', id: 6 },
            value: { type: 'bytes', id: 7 },
            lease: { type: 'int64', id: 8 },
          },
          nested: {
            CompareResult: { values: { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 } },
            CompareTarget: { values: { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 } },
          },
        },
        TxnRequest: msg({
          compare: { type: 'Compare', id: 1, rule: 'repeated' },
          success: { type: 'RequestOp', id: 2, rule: 'repeated' },
          failure: { type: 'RequestOp', id: 3, rule: 'repeated' },
        }),
        TxnResponse: msg({
          ...header,
          succeeded: { type: 'bool', id: 2 },
          responses: { type: 'ResponseOp', id: 3, rule: 'repeated' },
        }),
        LeaseGrantRequest: msg({ TTL: { type: 'int64', id: 1 }, ID: { type: 'int64', id: 2 } }),
        LeaseGrantResponse: msg({
          ...header,
          ID: { type: 'int64', id: 2 },
          TTL: { type: 'int64', id: 3 },
          error: { type: 'string', id: 4 },
        }),
        LeaseRevokeRequest: msg({ ID: { type: 'int64', id: 1 } }),
        LeaseRevokeResponse: msg({ ...header }),
        LeaseKeepAliveRequest: msg({ ID: { type: 'int64', id: 1 } }),
        LeaseKeepAliveResponse: msg({
          ...header,
          ID: { type: 'int64', id: 2 },
          TTL: { type: 'int64', id: 3 },
        }),
        WatchRequest: msg({
          create_request: { type: 'WatchCreateRequest', id: 1 },
          cancel_request: { type: 'WatchCancelRequest', id: 2 },
        }),
        WatchCreateRequest: msg({
          key: { type: 'bytes', id: 1 },
          range_end: { type: 'bytes', id: 2 },
          start_revision: { type: 'int64', id: 3 },
        }),
        WatchCancelRequest: msg({ watch_id: { type: 'int64', id: 1 } }),
        WatchResponse: msg({
          ...header,
          watch_id: { type: 'int64', id: 2 },
          created: { type: 'bool', id: 3 },
          canceled: { type: 'bool', id: 4 },
          compact_revision: { type: 'int64', id: 5 },
          cancel_reason: { type: 'string', id: 6 },
          events: { type: 'mvccpb.Event', id: 11, rule: 'repeated' },
        }),
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
