// The prebuilt form of a proto set: protobufjs' JSON cut into its packages and their top-level definitions,
// each definition with the others it needs. The single executable carries proto sets this way so a node
// builds the protobufjs types of a method when the method is first called (src/api/proto-lazy.ts), not every
// type of the API at start: under emulation building them all was a quarter of the time to the first answer.
// Made at build time from a resolved root; plain JSON data, so it is embedded as is.
import protobuf from 'protobufjs';

/** a top-level definition: what protobufjs' JSON holds directly under a package */
export type DefinitionKind = 'message' | 'enum' | 'service' | 'extension';

export interface NamespaceEntry {
  readonly ns: string;
  readonly options?: Readonly<Record<string, unknown>>;
}

export interface DefinitionEntry {
  /** full name without the leading dot: `machine.VersionResponse` */
  readonly def: string;
  readonly kind: DefinitionKind;
  /** protobufjs' JSON of the definition, nested types included */
  readonly json: object;
  /** top-level definitions its fields (nested types' included) refer to, and extensions of it */
  readonly deps: readonly string[];
}

export interface ProtoIndex {
  /** the root's options */
  readonly options?: Readonly<Record<string, unknown>>;
  /** packages and definitions in protobufjs' order; a package comes before what it holds */
  readonly entries: readonly (NamespaceEntry | DefinitionEntry)[];
  /** `package.Service.Method` → the top-level definitions holding its request and response types */
  readonly methods: Readonly<Record<string, readonly string[]>>;
}

const bare = (fullName: string) => fullName.replace(/^\./, '');

/** isPackage: a namespace that is only a namespace (messages and services are namespaces in protobufjs) */
function isPackage(obj: protobuf.ReflectionObject): obj is protobuf.Namespace {
  return (
    obj instanceof protobuf.Namespace && !(obj instanceof protobuf.Type) && !(obj instanceof protobuf.Service)
  );
}

/** topLevel is the definition directly in a package that holds `obj` (itself when it is one). */
function topLevel(obj: protobuf.ReflectionObject): string {
  let cur = obj;
  while (cur.parent && !isPackage(cur.parent)) cur = cur.parent;
  return bare(cur.fullName);
}

function kindOf(obj: protobuf.ReflectionObject): DefinitionKind {
  if (obj instanceof protobuf.Type) return 'message';
  if (obj instanceof protobuf.Enum) return 'enum';
  if (obj instanceof protobuf.Service) return 'service';
  if (obj instanceof protobuf.Field) return 'extension';
  throw new Error(`${obj.fullName}: a ${obj.constructor.name} cannot be a top-level proto definition`);
}

/** referencedTypes adds the top-level definitions a message's fields (nested messages' too) refer to. */
function referencedTypes(obj: protobuf.ReflectionObject, out: Set<string>): void {
  if (obj instanceof protobuf.Field) {
    if (obj.resolvedType) out.add(topLevel(obj.resolvedType));
    return;
  }
  if (obj instanceof protobuf.Type) {
    for (const f of obj.fieldsArray) referencedTypes(f, out);
    for (const n of obj.nestedArray) referencedTypes(n, out);
  }
}

/**
 * protoIndex cuts a root into its prebuilt form. The root must be resolved (resolveAll): a definition's
 * dependencies are the types its fields resolved to.
 */
export function protoIndex(root: protobuf.Root): ProtoIndex {
  const entries: (NamespaceEntry | DefinitionEntry)[] = [];
  const methods: Record<string, string[]> = {};
  const deps = new Map<string, Set<string>>();
  const depsOf = (name: string) => {
    const set = deps.get(name) ?? new Set<string>();
    deps.set(name, set);
    return set;
  };
  const walk = (ns: protobuf.Namespace) => {
    for (const obj of ns.nestedArray) {
      if (isPackage(obj)) {
        entries.push(
          obj.options ? { ns: bare(obj.fullName), options: obj.options } : { ns: bare(obj.fullName) },
        );
        walk(obj);
        continue;
      }
      const name = bare(obj.fullName);
      // an extension met earlier may have registered itself here already
      const needs = depsOf(name);
      if (obj instanceof protobuf.Field) {
        // an extension: adding it adds a field to the extended message, so that message brings it along
        if (obj.resolvedType) needs.add(topLevel(obj.resolvedType));
        const extended = obj.extensionField?.parent;
        if (extended) {
          needs.add(topLevel(extended));
          depsOf(topLevel(extended)).add(name);
        }
      } else referencedTypes(obj, needs);
      if (obj instanceof protobuf.Service)
        for (const m of obj.methodsArray)
          methods[`${name}.${m.name}`] = [
            ...new Set([topLevel(m.resolvedRequestType!), topLevel(m.resolvedResponseType!)]),
          ];
      entries.push({ def: name, kind: kindOf(obj), json: obj.toJSON(), deps: [] });
    }
  };
  walk(root);
  const withDeps = entries.map((e) =>
    'def' in e ? { ...e, deps: [...(deps.get(e.def) ?? [])].filter((d) => d !== e.def).sort() } : e,
  );
  return root.options
    ? { options: root.options, entries: withDeps, methods }
    : { entries: withDeps, methods };
}
