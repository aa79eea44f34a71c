// OperatorMergeController: per operator and link, the highest layer wins.
import { OperatorSpec } from '../../resources/network/operator-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeOperators } from './internal/merge-layers.js';

/** OperatorMergeController folds the layered OperatorSpecs of network-config into the OperatorSpecs of network. */
export const OperatorMergeController = mergeController(OperatorSpec, { merge: mergeOperators });
