// Registering namespaces and resource types as meta resources, owned by "meta".
//
// Upstream's registries Create and so fail on a second registration; these are idempotent instead:
// an equal resource is left alone (no version bump, no event) and a changed one is updated.

import type { SignalOptions } from '../../state/core.js';
import type { State } from '../../state/state.js';
import { cloneData } from '../data.js';
import type { ResourceDefinitionSpec } from '../definition.js';
import { MetaOwner, NamespaceName } from './core.js';
import { NamespaceType, newNamespace } from './namespace.js';
import { newResourceDefinition, ResourceDefinitionType } from './resource-definition.js';

/** registerNamespace records namespace `ns` with its description. */
export async function registerNamespace(
  state: State,
  ns: string,
  description: string,
  opts: SignalOptions = {},
): Promise<void> {
  await state.modify(
    newNamespace(ns, description),
    (r) => {
      r.spec = { description };
    },
    { owner: MetaOwner, signal: opts.signal },
  );
}

/** registerResource records the ResourceDefinition of a type (anything carrying a filled definition). */
export async function registerResource(
  state: State,
  rtype: { readonly definition: ResourceDefinitionSpec },
  opts: SignalOptions = {},
): Promise<void> {
  const definition = rtype.definition;
  await state.modify(
    newResourceDefinition(definition),
    (r) => {
      r.spec = cloneData(definition);
    },
    { owner: MetaOwner, signal: opts.signal },
  );
}

/** registerDefault records the meta namespace and the definitions of the two meta types. */
export async function registerDefault(state: State, opts: SignalOptions = {}): Promise<void> {
  await registerNamespace(
    state,
    NamespaceName,
    'Metadata namespace which contains resource and namespace definitions.',
    opts,
  );
  await registerResource(state, ResourceDefinitionType, opts);
  await registerResource(state, NamespaceType, opts);
}
