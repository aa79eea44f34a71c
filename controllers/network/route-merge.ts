// RouteMergeController: per route id, the highest layer wins.
import { RouteSpec } from '../../resources/network/route-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeRoutes } from './internal/merge-layers.js';

/** RouteMergeController folds the layered RouteSpecs of network-config into the RouteSpecs of network. */
export const RouteMergeController = mergeController(RouteSpec, { merge: mergeRoutes });
