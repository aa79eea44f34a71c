// LinkMergeController: per link, field by field, higher layers overriding what they set.
import { LinkSpec } from '../../resources/network/link-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeLinks } from './internal/merge-link.js';

/** LinkMergeController folds the layered LinkSpecs of network-config into the LinkSpecs of network. */
export const LinkMergeController = mergeController(LinkSpec, { merge: mergeLinks });
