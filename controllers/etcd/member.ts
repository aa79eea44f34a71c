// etcd.MemberController: EtcdMember `local`, this node's member ID (hex, as upstream prints it), read from
// the member itself once the etcd service runs, with machined's etcd client identity; gone when it stops.
import { ETCD_LOCAL_MEMBER_ID, EtcdMember, memberIDHex } from '../../resources/etcd/index.js';
import { Service, ServiceSpec } from '../../resources/v1alpha1/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { EtcdClient } from '../../src/etcd/index.js';
import { destroyIfPresent } from '../internal/destroy-if-present.js';
import { ETCD_SERVICE_ID, etcdClientTLS } from './service.js';

export const ETCD_MEMBER_CONTROLLER = 'etcd.MemberController';

export const EtcdMemberController = defineController({
  name: ETCD_MEMBER_CONTROLLER,
  inputs: [input(Service, { id: ETCD_SERVICE_ID }), input(ServiceSpec, { id: ETCD_SERVICE_ID })],
  outputs: [output(EtcdMember, 'exclusive')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const svc = await rt.getOrNull(Service, ETCD_SERVICE_ID, { signal });
      const spec = await rt.getOrNull(ServiceSpec, ETCD_SERVICE_ID, { signal });
      if (!svc?.spec.running || !svc.spec.healthy || !spec) {
        await destroyIfPresent(rt, EtcdMember.pointer(ETCD_LOCAL_MEMBER_ID), { signal });
        rt.resetBackoff();
        continue;
      }
      const client = new EtcdClient({
        endpoints: [spec.spec.options.localEndpoint ?? ''],
        tls: etcdClientTLS(spec.spec),
        timeoutMs: 10_000,
      });
      try {
        // an error here is retried with the controller's backoff
        const id = (await client.status()).memberId;
        await rt.modify(EtcdMember, ETCD_LOCAL_MEMBER_ID, () => ({ memberID: memberIDHex(id) }), { signal });
      } finally {
        client.close();
      }
      rt.resetBackoff();
    }
  },
});
