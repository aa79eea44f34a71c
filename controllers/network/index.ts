// controllers/network: the network config controllers (layered specs into network-config) and the
// merge controllers that fold the layers into the specs of network.
import type { Controller } from '../../src/cosi/controller/index.js';
import { addressConfigController } from './address-config.js';
import { AddressMergeController } from './address-merge.js';
import { DeviceConfigController } from './device-config.js';
import { hostnameConfigController } from './hostname-config.js';
import { HostnameMergeController } from './hostname-merge.js';
import { linkConfigController } from './link-config.js';
import { LinkMergeController } from './link-merge.js';
import { operatorConfigController } from './operator-config.js';
import { OperatorMergeController } from './operator-merge.js';
import { resolverConfigController } from './resolver-config.js';
import { ResolverMergeController } from './resolver-merge.js';
import { routeConfigController } from './route-config.js';
import { RouteMergeController } from './route-merge.js';
import { timeServerConfigController } from './timeserver-config.js';
import { TimeServerMergeController } from './timeserver-merge.js';

export * from './address-config.js';
export * from './address-merge.js';
export * from './device-config.js';
export * from './hostname-config.js';
export * from './hostname-merge.js';
export * from './internal/cmdline.js';
export { mergeController, mergeControllerName } from './internal/generic-merge.js';
export type { LinkInfo } from './internal/links.js';
export * from './internal/merge-layers.js';
export { mergeLink, mergeLinks } from './internal/merge-link.js';
export { mergeDNSServers, mergeResolvers } from './internal/merge-resolver.js';
export * from './link-config.js';
export * from './link-merge.js';
export * from './operator-config.js';
export * from './operator-merge.js';
export * from './resolver-config.js';
export * from './resolver-merge.js';
export * from './route-config.js';
export * from './route-merge.js';
export * from './timeserver-config.js';
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

export interface NetworkConfigOptions {
  /** the kernel command line (`/proc/cmdline`, read by the caller); absent = no cmdline layer */
  readonly cmdline?: string;
  /** the node's stable identity, seed of the `auto: stable` hostname `talos-xxx-yyy`; absent = none */
  readonly machineIdentity?: string;
  /** container mode: lo's addresses are the container runtime's */
  readonly containerMode?: boolean;
}

/** networkConfigControllers are the config controllers (sources → network-config) and the merge controllers. */
export function networkConfigControllers(opts: NetworkConfigOptions = {}): Controller[] {
  const cmdline = opts.cmdline === undefined ? {} : { cmdline: opts.cmdline };
  return [
    DeviceConfigController,
    addressConfigController({ ...cmdline, ...(opts.containerMode ? { containerMode: true } : {}) }),
    hostnameConfigController({
      ...cmdline,
      ...(opts.machineIdentity === undefined ? {} : { machineIdentity: opts.machineIdentity }),
    }),
    linkConfigController(cmdline),
    operatorConfigController(cmdline),
    resolverConfigController(cmdline),
    routeConfigController(cmdline),
    timeServerConfigController(cmdline),
    ...mergeControllers(),
  ];
}
