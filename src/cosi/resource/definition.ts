// ResourceDefinition: the type's self-description (display name, aliases, columns, sensitivity), validated.
import pluralize from 'pluralize';

export interface PrintColumn {
  readonly name: string;
  readonly jsonPath: string;
}

export type Sensitivity = '' | 'sensitive';

/** What a type author writes; fillDefinition derives the rest. */
export interface ResourceDefinitionInput {
  readonly type: string;
  readonly defaultNamespace: string;
  readonly aliases?: readonly string[];
  readonly printColumns?: readonly PrintColumn[];
  readonly sensitivity?: Sensitivity;
  readonly skipAutomaticAliases?: boolean;
}

/** ResourceDefinitionSpec is the spec of ResourceDefinitions.meta.cosi.dev, field order as upstream's YAML. */
export interface ResourceDefinitionSpec {
  type: string;
  displayType: string;
  defaultNamespace: string;
  aliases: string[];
  allAliases: string[];
  skipAutomaticAliases?: boolean;
  printColumns: PrintColumn[];
  sensitivity?: Sensitivity;
}

/** DefinitionError says why a type name or definition is invalid. */
export class DefinitionError extends Error {
  constructor(
    readonly type: string,
    reason: string,
  ) {
    super(`invalid resource definition ${JSON.stringify(type)}: ${reason}`);
    this.name = 'DefinitionError';
  }
}

const NAME_RE = /^[A-Z][A-Za-z0-9-]+$/;
const SUFFIX_RE = /^[a-z][a-z0-9-]+(\.[a-z][a-z0-9-]+)*$/;

/** definitionID is the ResourceDefinition resource id: the lowercased type. */
export const definitionID = (type: string): string => type.toLowerCase();

/** fillDefinition validates the type name and derives displayType and the alias lists. */
export function fillDefinition(input: ResourceDefinitionInput): ResourceDefinitionSpec {
  const fail = (reason: string) => new DefinitionError(input.type, reason);
  const dot = input.type.indexOf('.');
  if (dot < 0) throw fail('missing suffix');
  const name = input.type.slice(0, dot);
  const suffix = input.type.slice(dot + 1);
  if (name === '') throw fail('name is empty');
  if (suffix === '') throw fail('suffix is empty');
  if (name.toLowerCase() === name) throw fail('name should be in CamelCase');
  if (!NAME_RE.test(name)) throw fail(`name doesn't match ${JSON.stringify(NAME_RE.source)}`);
  if (!SUFFIX_RE.test(suffix)) throw fail(`suffix doesn't match ${JSON.stringify(SUFFIX_RE.source)}`);
  if (!pluralize.isPlural(name)) throw fail('name should be plural');
  const sensitivity = input.sensitivity ?? '';
  if (sensitivity !== '' && sensitivity !== 'sensitive')
    throw fail(`unknown sensitivity ${JSON.stringify(sensitivity)}`);

  const displayType = pluralize.singular(name);
  const aliases = [...(input.aliases ?? [])];
  const lower = name.toLowerCase();
  const allAliases: string[] = [];
  if (!input.skipAutomaticAliases) {
    aliases.push(displayType.toLowerCase());
    allAliases.push(lower);
    const parts = suffix.split('.');
    for (let i = 1; i < parts.length; i++) allAliases.push(`${lower}.${parts.slice(0, i).join('.')}`);
    const capitals = name.replace(/[^A-Z]/g, '');
    if (capitals.length > 1) {
      const short = capitals.toLowerCase();
      aliases.push(short);
      if (!capitals.endsWith('S')) aliases.push(`${short}s`);
    }
  }
  allAliases.push(...aliases);

  const spec: ResourceDefinitionSpec = {
    type: input.type,
    displayType,
    defaultNamespace: input.defaultNamespace,
    aliases,
    allAliases,
    printColumns: (input.printColumns ?? []).map((c) => ({ name: c.name, jsonPath: c.jsonPath })),
  };
  if (input.skipAutomaticAliases) spec.skipAutomaticAliases = true;
  if (sensitivity) spec.sensitivity = sensitivity;
  return spec;
}
