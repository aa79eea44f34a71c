// Dependency graph of services: cycle checks, and who depends on whom (for stop order).
import { ServiceError } from './errors.js';

export type DependencyMap = ReadonlyMap<string, readonly string[]>;

/** dependents lists the services that depend on `id` directly. */
export function dependents(deps: DependencyMap, id: string): string[] {
  return [...deps].filter(([, on]) => on.includes(id)).map(([k]) => k);
}

/** reverseDependents lists every service that depends on `id`, directly or through others. */
export function reverseDependents(deps: DependencyMap, id: string): string[] {
  const out = new Set<string>();
  const visit = (x: string): void => {
    for (const d of dependents(deps, x))
      if (!out.has(d)) {
        out.add(d);
        visit(d);
      }
  };
  visit(id);
  return [...out];
}

/** checkAcyclic throws a dependency-cycle ServiceError naming the loop, if there is one. */
export function checkAcyclic(deps: DependencyMap): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string, path: string[]): void => {
    const s = state.get(id);
    if (s === 'done') return;
    if (s === 'visiting')
      throw new ServiceError(
        'dependency-cycle',
        `service dependency cycle: ${[...path.slice(path.indexOf(id)), id].join(' → ')}`,
      );
    state.set(id, 'visiting');
    for (const d of deps.get(id) ?? []) visit(d, [...path, id]);
    state.set(id, 'done');
  };
  for (const id of deps.keys()) visit(id, []);
}

/** startOrder sorts ids so that each comes after the services it depends on (ties by id). */
export function startOrder(deps: DependencyMap): string[] {
  checkAcyclic(deps);
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string): void => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const d of [...(deps.get(id) ?? [])].sort()) if (deps.has(d)) visit(d);
    out.push(id);
  };
  for (const id of [...deps.keys()].sort()) visit(id);
  return out;
}
