// ResolverMergeController: layers in order, keeping a family the higher layer lacks.
import { ResolverSpec } from '../../resources/network/resolver-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeResolvers } from './internal/merge-resolver.js';

/** ResolverMergeController folds the layered ResolverSpecs of network-config into the ResolverSpecs of network. */
export const ResolverMergeController = mergeController(ResolverSpec, { merge: mergeResolvers });
