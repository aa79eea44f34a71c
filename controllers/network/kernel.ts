// controllers/network/kernel: the controllers that face the kernel over rtnetlink. The status
// controllers mirror links, addresses and routes into resources; the spec controllers converge the
// merged specs of `network` into the kernel and undo changes made behind their back.
import type { Controller } from '../../src/cosi/controller/index.js';
import { AddressSpecController } from './address-spec.js';
import { AddressStatusController } from './address-status.js';
import { LinkSpecController } from './link-spec.js';
import { LinkStatusController } from './link-status.js';
import { RouteSpecController } from './route-spec.js';
import { RouteStatusController } from './route-status.js';

export * from './address-spec.js';
export * from './address-status.js';
export { errnoOf } from './internal/kernel-refusals.js';
export * from './link-spec.js';
export * from './link-status.js';
export * from './route-spec.js';
export * from './route-status.js';

/** kernelNetworkControllers are the rtnetlink-facing network controllers, to run on a node's own namespace. */
export const kernelNetworkControllers = (): Controller[] => [
  LinkStatusController,
  AddressStatusController,
  RouteStatusController,
  LinkSpecController,
  AddressSpecController,
  RouteSpecController,
];
