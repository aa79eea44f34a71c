// HostnameMergeController: the highest layer with a hostname wins.
import { HostnameSpec } from '../../resources/network/hostname-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeHostname } from './internal/merge-layers.js';

/** HostnameMergeController folds the layered HostnameSpecs of network-config into the HostnameSpecs of network. */
export const HostnameMergeController = mergeController(HostnameSpec, { merge: mergeHostname });
