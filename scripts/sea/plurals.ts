// The two pluralize answers each of machined's resource definitions asks for (is the type's name plural,
// and its singular), worked out here at build time. Under TCG, pluralize's first answers took about
// 0.15 s of a boot in a profile, nearly all of it V8 compiling the regular expressions of its hundred-odd
// rules on first use. The bundle answers these names from this table (scripts/sea.ts, pluralPlugin) and
// loads pluralize itself only for a name not in it.
import pluralize from 'pluralize';
import { BLOCK_TYPES } from '../../resources/block/index.js';
import { CLUSTER_TYPES } from '../../resources/cluster/index.js';
import { CONFIG_TYPES } from '../../resources/config/index.js';
import { CRI_TYPES } from '../../resources/cri/index.js';
import { ETCD_TYPES } from '../../resources/etcd/index.js';
import { FILES_TYPES } from '../../resources/files/index.js';
import { K8S_TYPES } from '../../resources/k8s/index.js';
import { NETWORK_TYPES } from '../../resources/network/index.js';
import { RUNTIME_TYPES } from '../../resources/runtime/index.js';
import { SECRETS_TYPES } from '../../resources/secrets/index.js';
import { TIME_TYPES } from '../../resources/time/index.js';
import { V1ALPHA1_TYPES } from '../../resources/v1alpha1/index.js';
import { NamespaceType, ResourceDefinitionType } from '../../src/cosi/resource/meta/index.js';

export interface PluralAnswers {
  readonly isPlural: boolean;
  readonly singular: string;
}

/** RESOURCE_TYPES are the types machined registers (src/machined registers each of these lists). */
export const RESOURCE_TYPES = [
  ...BLOCK_TYPES,
  ...CLUSTER_TYPES,
  ...CONFIG_TYPES,
  ...CRI_TYPES,
  ...ETCD_TYPES,
  ...FILES_TYPES,
  ...K8S_TYPES,
  ...NETWORK_TYPES,
  ...RUNTIME_TYPES,
  ...SECRETS_TYPES,
  ...TIME_TYPES,
  ...V1ALPHA1_TYPES,
  NamespaceType,
  ResourceDefinitionType,
];

/** pluralTable maps each type's name (the part before the first dot) to pluralize's answers. */
export function pluralTable(): Record<string, PluralAnswers> {
  const out: Record<string, PluralAnswers> = {};
  for (const { type } of RESOURCE_TYPES) {
    const name = type.slice(0, type.indexOf('.'));
    out[name] = { isPlural: pluralize.isPlural(name), singular: pluralize.singular(name) };
  }
  return out;
}
