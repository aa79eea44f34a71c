// TimeServerMergeController: the highest layer wins, servers of one layer add up.
import { TimeServerSpec } from '../../resources/network/timeserver-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeTimeServers } from './internal/merge-layers.js';

/** TimeServerMergeController folds the layered TimeServerSpecs of network-config into the TimeServerSpecs of network. */
export const TimeServerMergeController = mergeController(TimeServerSpec, { merge: mergeTimeServers });
