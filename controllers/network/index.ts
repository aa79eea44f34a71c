// controllers/network: the network config controllers (layered specs into network-config) and the
// merge controllers that fold the layers into the specs of network.
import type { Controller } from '../../src/cosi/controller/index.js';
import { AddressMergeController } from './address-merge.js';
import { HostnameMergeController } from './hostname-merge.js';
import { LinkMergeController } from './link-merge.js';
import { OperatorMergeController } from './operator-merge.js';
import { ResolverMergeController } from './resolver-merge.js';
import { RouteMergeController } from './route-merge.js';
import { TimeServerMergeController } from './timeserver-merge.js';

export * from './address-merge.js';
export * from './hostname-merge.js';
export * from './internal/cmdline.js';
export { mergeController, mergeControllerName } from './internal/generic-merge.js';
export * from './internal/merge-layers.js';
export { mergeLink, mergeLinks } from './internal/merge-link.js';
export { mergeDNSServers, mergeResolvers } from './internal/merge-resolver.js';
export * from './link-merge.js';
export * from './operator-merge.js';
export * from './resolver-merge.js';
export * from './route-merge.js';
export * from './timeserver-merge.js';

/** mergeControllers are the seven merge controllers, network-config → network. */
export const mergeControllers = (): Controller[] => [
  AddressMergeController,
  HostnameMergeController,
  LinkMergeController,
  OperatorMergeController,
  ResolverMergeController,
  RouteMergeController,
  TimeServerMergeController,
];
