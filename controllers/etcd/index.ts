// controllers/etcd: etcd on a control-plane node, as upstream's etcd controllers — config → EtcdConfig →
// EtcdSpec → the etcd ServiceSpec the supervisor runs → EtcdMember once it does.
import type { Controller } from '../../src/cosi/controller/index.js';
import { EtcdConfigController } from './config.js';
import { EtcdMemberController } from './member.js';
import { type EtcdServicePaths, etcdServiceController } from './service.js';
import { EtcdSpecController } from './spec.js';

export * from './config.js';
export * from './member.js';
export * from './service.js';
export * from './spec.js';

/** etcdControllers are the controllers a node registers for etcd. */
export const etcdControllers = (paths: EtcdServicePaths): Controller[] => [
  EtcdConfigController,
  EtcdSpecController,
  etcdServiceController(paths),
  EtcdMemberController,
];
