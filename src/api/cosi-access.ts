// The access policy in front of the node's COSI state over the API: reads only, of registered types in
// registered namespaces, and sensitive types only for os:admin.
import type { ResourceDefinitionSpec } from '../cosi/resource/definition.js';
import { NamespaceType, ResourceDefinitionType } from '../cosi/resource/meta/index.js';
import type { CoreState } from '../cosi/state/core.js';
import { isNotFound } from '../cosi/state/errors.js';
import { type FilterRule, isReadonlyVerb } from '../cosi/state/filter.js';
import { Role } from '../pki/index.js';
import { callerRoles } from './caller-roles.js';
import { ApiError } from './errors.js';

const META = 'meta';

/** accessPolicy is the rule; `state` is the unfiltered node state it looks definitions up in. */
export function accessPolicy(state: CoreState): FilterRule {
  return async ({ namespace, type, verb }, { signal }) => {
    if (!isReadonlyVerb(verb)) throw new ApiError('permission-denied', 'write access is not allowed');
    const opts = signal ? { signal } : {};
    let rd: ResourceDefinitionSpec;
    try {
      const r = await state.get(
        { namespace: META, type: ResourceDefinitionType.definition.type, id: type.toLowerCase() },
        opts,
      );
      rd = r.spec as ResourceDefinitionSpec;
    } catch (err) {
      if (isNotFound(err))
        throw new ApiError('permission-denied', `resource type ${JSON.stringify(type)} is not supported`);
      throw err;
    }
    if (rd.sensitivity === 'sensitive' && !callerRoles.getStore()?.has(Role.admin))
      throw new ApiError(
        'permission-denied',
        `resource type ${JSON.stringify(type)} is sensitive: os:admin only`,
      );
    try {
      await state.get({ namespace: META, type: NamespaceType.definition.type, id: namespace }, opts);
    } catch (err) {
      if (isNotFound(err))
        throw new ApiError('permission-denied', `namespace ${JSON.stringify(namespace)} is not registered`);
      throw err;
    }
  };
}
