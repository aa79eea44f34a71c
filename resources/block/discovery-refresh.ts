// DiscoveryRefreshRequests.block.talos.dev and DiscoveryRefreshStatuses.block.talos.dev: a counter asking
// discovery to probe every device again, and the last request discovery has answered.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { type Field, specCodec } from './fields.js';
import { BLOCK_NAMESPACE } from './namespace.js';

/** REFRESH_ID is the id of the one request and the one status. */
export const REFRESH_ID = 'refresh';

/** DiscoveryRefreshRequestSpec: a new number asks for a full re-probe. */
export interface DiscoveryRefreshRequestSpec {
  request: number;
}

/** DiscoveryRefreshStatusSpec: the request number whose re-probe is done. */
export interface DiscoveryRefreshStatusSpec {
  request: number;
}

const FIELDS: readonly Field<{ request: number }>[] = [
  { key: 'request', yaml: 'request', kind: 'number', no: 1, proto: 'int64' },
];

export const DiscoveryRefreshRequest = defineResource<DiscoveryRefreshRequestSpec>({
  type: 'DiscoveryRefreshRequests.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [{ name: 'Request', jsonPath: '{.request}' }],
  ...specCodec(FIELDS),
});
export type DiscoveryRefreshRequest = ResourceOf<typeof DiscoveryRefreshRequest>;

export const DiscoveryRefreshStatus = defineResource<DiscoveryRefreshStatusSpec>({
  type: 'DiscoveryRefreshStatuses.block.talos.dev',
  defaultNamespace: BLOCK_NAMESPACE,
  printColumns: [{ name: 'Request', jsonPath: '{.request}' }],
  ...specCodec(FIELDS),
});
export type DiscoveryRefreshStatus = ResourceOf<typeof DiscoveryRefreshStatus>;
