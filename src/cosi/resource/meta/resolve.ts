// Resolving what a user typed ("rd", "Namespaces", "addresses.net") to a registered resource type, as talosctl does.
import type { CoreState, SignalOptions } from '../../state/core.js';
import { definitionID, type ResourceDefinitionSpec } from '../definition.js';
import { NamespaceName } from './core.js';
import { ResourceDefinitionType } from './resource-definition.js';

export type ResolveTypeErrorCode = 'ambiguous' | 'not-registered';

export class ResolveTypeError extends Error {
  constructor(
    readonly code: ResolveTypeErrorCode,
    readonly input: string,
    /** ids of the definitions that matched, for 'ambiguous' */
    readonly matches: readonly string[],
    message: string,
  ) {
    super(message);
    this.name = 'ResolveTypeError';
  }
}

const same = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();

/**
 * resolveType finds the one definition whose id (the lowercased type) or any of allAliases equals
 * the input, ignoring case. Several matches are ambiguous and none is "not registered", with
 * talosctl's messages; the caller takes the namespace from defaultNamespace when none was given.
 */
export function resolveType(
  definitions: Iterable<ResourceDefinitionSpec>,
  userInput: string,
): ResourceDefinitionSpec {
  const matched: ResourceDefinitionSpec[] = [];
  for (const d of definitions) {
    if (same(definitionID(d.type), userInput) || d.allAliases.some((a) => same(a, userInput)))
      matched.push(d);
  }
  if (matched.length === 1) return matched[0]!;
  if (matched.length > 1) {
    const ids = matched.map((d) => definitionID(d.type));
    throw new ResolveTypeError(
      'ambiguous',
      userInput,
      ids,
      `resource type ${JSON.stringify(userInput)} is ambiguous: [${ids.join(' ')}]`,
    );
  }
  throw new ResolveTypeError(
    'not-registered',
    userInput,
    [],
    `resource ${JSON.stringify(userInput)} is not registered`,
  );
}

/** resolveTypeIn lists the ResourceDefinitions kept in a state and resolves against them. */
export async function resolveTypeIn(
  state: CoreState,
  userInput: string,
  opts: SignalOptions = {},
): Promise<ResourceDefinitionSpec> {
  const rds = await state.list(
    { namespace: NamespaceName, type: ResourceDefinitionType.type },
    { signal: opts.signal },
  );
  return resolveType(
    rds.filter(ResourceDefinitionType.is).map((r) => r.spec),
    userInput,
  );
}
