// EtcdMembers.etcd.talos.dev (`local`): this node's member ID in its etcd cluster, in hex as upstream prints it.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { obj, str } from '../network/yaml-read.js';
import { ETCD_NAMESPACE } from './config.js';

export const ETCD_LOCAL_MEMBER_ID = 'local';

export interface EtcdMemberSpec {
  memberID: string;
}

export const EtcdMember = defineResource<EtcdMemberSpec>({
  type: 'EtcdMembers.etcd.talos.dev',
  defaultNamespace: ETCD_NAMESPACE,
  printColumns: [{ name: 'Member ID', jsonPath: '{.memberID}' }],
  empty: () => ({ memberID: '' }),
  proto: { memberID: { no: 1, kind: 'string' } },
  fromYAML: (v) => ({ memberID: str(obj(v).memberID) }),
});
export type EtcdMember = ResourceOf<typeof EtcdMember>;

/** memberIDHex renders etcd's decimal uint64 member ID as upstream shows it: lowercase hex, no padding. */
export const memberIDHex = (decimal: string): string => BigInt(decimal).toString(16);
