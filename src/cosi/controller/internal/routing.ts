// Routing: which of a controller's inputs a changed resource concerns, and what that asks for.
import type { Input } from '../controller.js';
import type { ReducedResourceMetadata } from '../qcontroller.js';
import { isDestroyReady } from './reduced.js';

const covers = (i: Input, md: ReducedResourceMetadata): boolean =>
  i.namespace === md.namespace && i.type === md.type && (i.id === undefined || i.id === md.id);

/** wakes: a classic controller wakes for any covering input, except destroy-ready ones that are not. */
export function wakes(inputs: readonly Input[], md: ReducedResourceMetadata): boolean {
  return inputs.some((i) => covers(i, md) && (i.kind !== 'destroy-ready' || isDestroyReady(md)));
}

export type QJob = 'reconcile' | 'map';

/** qJobs: a primary input queues a reconcile, a mapped one a map job (destroy-ready ones only when ready). */
export function qJobs(inputs: readonly Input[], md: ReducedResourceMetadata): QJob[] {
  const jobs = new Set<QJob>();
  for (const i of inputs) {
    if (!covers(i, md)) continue;
    if (i.kind === 'q-primary') jobs.add('reconcile');
    else if (i.kind === 'q-mapped' || (i.kind === 'q-mapped-destroy-ready' && isDestroyReady(md)))
      jobs.add('map');
  }
  return [...jobs];
}
