// AddressMergeController: per link and address, the highest layer wins.
import { AddressSpec } from '../../resources/network/address-spec.js';
import { mergeController } from './internal/generic-merge.js';
import { mergeAddresses } from './internal/merge-layers.js';

/** AddressMergeController folds the layered AddressSpecs of network-config into the AddressSpecs of network. */
export const AddressMergeController = mergeController(AddressSpec, { merge: mergeAddresses });
