// Dependency database: who writes which type (exclusive or shared) and who is woken by which resources.
import type { ID, Namespace, Type } from '../../resource/kind.js';
import type { Input, InputKind, Output } from '../controller.js';
import type { DependencyEdge, DependencyEdgeType, DependencyGraph } from '../dependency.js';
import { ControllerError } from '../errors.js';

const KIND_ORDER: Readonly<Record<InputKind, number>> = {
  weak: 0,
  strong: 1,
  'destroy-ready': 2,
  'q-primary': 3,
  'q-mapped': 4,
  'q-mapped-destroy-ready': 5,
};

const INPUT_EDGES: Readonly<Record<InputKind, DependencyEdgeType>> = {
  weak: 'InputWeak',
  strong: 'InputStrong',
  'destroy-ready': 'InputDestroyReady',
  'q-primary': 'InputQPrimary',
  'q-mapped': 'InputQMapped',
  'q-mapped-destroy-ready': 'InputQMappedDestroyReady',
};

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** compareInputs orders by namespace, type, id (an absent id first), then kind. */
export function compareInputs(a: Input, b: Input): number {
  return (
    cmp(a.namespace, b.namespace) ||
    cmp(a.type, b.type) ||
    (a.id === b.id ? 0 : a.id === undefined ? -1 : b.id === undefined ? 1 : cmp(a.id, b.id)) ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
  );
}

/** sameTarget: two inputs on the same (namespace, type, id), whatever their kinds. */
export const sameTarget = (a: Input, b: Input): boolean =>
  a.namespace === b.namespace && a.type === b.type && a.id === b.id;

export const inputString = (i: Input): string => `${i.kind} ${i.type}(${i.namespace}/${i.id ?? '*'})`;

const q = (s: string): string => JSON.stringify(s);
const kindKey = (ns: Namespace, type: Type): string => `${ns}\0${type}`;
const idKey = (ns: Namespace, type: Type, id: ID): string => `${ns}\0${type}\0${id}`;

const insertSorted = (list: string[], v: string): void => {
  let i = 0;
  while (i < list.length && list[i]! < v) i++;
  list.splice(i, 0, v);
};

/**
 * DependencyDatabase enforces the output rules at registration and answers "which controllers
 * depend on this resource?" for every deduplicated watch event (the hot path: two map lookups).
 */
export class DependencyDatabase {
  readonly #exclusive = new Map<Type, string>();
  readonly #shared = new Map<Type, string[]>();
  readonly #inputs = new Map<string, Input[]>();
  readonly #byKind = new Map<string, string[]>();
  readonly #byID = new Map<string, string[]>();

  addOutput(controller: string, out: Output): void {
    const exclusive = this.#exclusive.get(out.type);
    if (exclusive !== undefined)
      throw conflict(`resource ${q(out.type)} is already managed in exclusive mode by ${q(exclusive)}`);
    const shared = this.#shared.get(out.type);
    if (out.kind === 'exclusive') {
      if (shared)
        throw conflict(`resource ${q(out.type)} is already managed in shared mode by ${q(shared[0]!)}`);
      this.#exclusive.set(out.type, controller);
      return;
    }
    if (shared?.includes(controller))
      throw conflict(`duplicate shared controller output: ${q(out.type)} -> ${q(controller)}`);
    if (shared) insertSorted(shared, controller);
    else this.#shared.set(out.type, [controller]);
  }

  addInput(controller: string, input: Input): void {
    const list = this.#inputs.get(controller) ?? [];
    if (list.some((i) => sameTarget(i, input)))
      throw conflict(`duplicate controller input: ${q(controller)} -> ${inputString(input)}`);
    let at = 0;
    while (at < list.length && compareInputs(list[at]!, input) < 0) at++;
    list.splice(at, 0, input);
    this.#inputs.set(controller, list);
    const key = lookupKey(input);
    const lookup = input.id === undefined ? this.#byKind : this.#byID;
    const names = lookup.get(key);
    if (names) names.push(controller);
    else lookup.set(key, [controller]);
  }

  deleteInput(controller: string, input: Input): void {
    const list = this.#inputs.get(controller) ?? [];
    const at = list.findIndex((i) => sameTarget(i, input));
    if (at < 0) throw conflict(`controller ${q(controller)} does not have input ${inputString(input)}`);
    list.splice(at, 1);
    const key = lookupKey(input);
    const lookup = input.id === undefined ? this.#byKind : this.#byID;
    const names = (lookup.get(key) ?? []).filter((n) => n !== controller);
    if (names.length > 0) lookup.set(key, names);
    else lookup.delete(key);
  }

  /** removeController forgets every output and input of one controller (rollback of a failed registration). */
  removeController(controller: string): void {
    for (const [type, name] of this.#exclusive) if (name === controller) this.#exclusive.delete(type);
    for (const [type, names] of this.#shared) {
      const rest = names.filter((n) => n !== controller);
      if (rest.length > 0) this.#shared.set(type, rest);
      else this.#shared.delete(type);
    }
    for (const i of this.inputs(controller)) this.deleteInput(controller, i);
    this.#inputs.delete(controller);
  }

  /** inputs of one controller, sorted by compareInputs. */
  inputs(controller: string): Input[] {
    return [...(this.#inputs.get(controller) ?? [])];
  }

  /** dependents: controllers with an input on (ns, type) or on exactly (ns, type, id); may repeat a name. */
  dependents(ns: Namespace, type: Type, id: ID): readonly string[] {
    const a = this.#byKind.get(kindKey(ns, type));
    const b = this.#byID.get(idKey(ns, type, id));
    if (!b) return a ?? [];
    if (!a) return b;
    return [...a, ...b];
  }

  export(): DependencyGraph {
    const outputs: DependencyEdge[] = [];
    for (const [type, name] of this.#exclusive) outputs.push(outputEdge(name, type, 'OutputExclusive'));
    for (const [type, names] of this.#shared)
      for (const name of names) outputs.push(outputEdge(name, type, 'OutputShared'));
    const inputs: DependencyEdge[] = [];
    for (const [name, list] of this.#inputs)
      for (const i of list)
        inputs.push({
          controllerName: name,
          resourceNamespace: i.namespace,
          resourceType: i.type,
          resourceId: i.id ?? '',
          edgeType: INPUT_EDGES[i.kind],
        });
    const byTarget = (a: DependencyEdge, b: DependencyEdge) =>
      cmp(a.controllerName, b.controllerName) ||
      cmp(a.resourceNamespace, b.resourceNamespace) ||
      cmp(a.resourceType, b.resourceType) ||
      cmp(a.resourceId, b.resourceId);
    outputs.sort((a, b) => cmp(a.edgeType, b.edgeType) || byTarget(a, b));
    inputs.sort(byTarget);
    return { edges: [...outputs, ...inputs] };
  }
}

const lookupKey = (i: Input): string =>
  i.id === undefined ? kindKey(i.namespace, i.type) : idKey(i.namespace, i.type, i.id);

const outputEdge = (
  controllerName: string,
  resourceType: Type,
  edgeType: DependencyEdgeType,
): DependencyEdge => ({
  controllerName,
  resourceNamespace: '',
  resourceType,
  resourceId: '',
  edgeType,
});

const conflict = (msg: string) => new ControllerError('dependency-conflict', msg);
