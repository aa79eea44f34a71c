// The node identity the certificate controllers read: hostname status and accumulated addresses.
import {
  filteredNodeAddressID,
  HOSTNAME_ID,
  HostnameStatus,
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NODE_ADDRESS_FILTER_NO_K8S,
  NodeAddress,
} from '../../../resources/network/index.js';
import { input } from '../../../src/cosi/controller/index.js';

/**
 * Certificates name every address the node ever had (so they stay valid across DHCP changes), minus
 * pod and service addresses: the `accumulative-no-k8s` view, as upstream.
 */
export const CERT_NODE_ADDRESS_ID = filteredNodeAddressID(
  NODE_ADDRESS_ACCUMULATIVE_ID,
  NODE_ADDRESS_FILTER_NO_K8S,
);

/** The two inputs every SAN-bearing controller declares. */
export const nodeIdentityInputs = [
  input(HostnameStatus, { id: HOSTNAME_ID }),
  input(NodeAddress, { id: CERT_NODE_ADDRESS_ID }),
];
