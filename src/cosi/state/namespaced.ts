// namespaced: one CoreState per namespace behind a single CoreState, each built on first use.
import type { Namespace } from '../resource/kind.js';
import type { CoreState } from './core.js';

/** namespaced routes every operation by namespace, so namespaces can use different backends. */
export function namespaced(build: (ns: Namespace) => CoreState): CoreState {
  const backends = new Map<Namespace, CoreState>();
  const at = (ns: Namespace): CoreState => {
    let s = backends.get(ns);
    if (!s) {
      s = build(ns);
      backends.set(ns, s);
    }
    return s;
  };
  return {
    get: (ptr, opts) => at(ptr.namespace).get(ptr, opts),
    list: (kind, opts) => at(kind.namespace).list(kind, opts),
    create: (r, opts) => at(r.metadata.namespace).create(r, opts),
    update: (r, opts) => at(r.metadata.namespace).update(r, opts),
    destroy: (ptr, opts) => at(ptr.namespace).destroy(ptr, opts),
    watch: (ptr, opts) => at(ptr.namespace).watch(ptr, opts),
    watchKind: (kind, opts) => at(kind.namespace).watchKind(kind, opts),
    watchKindAggregated: (kind, opts) => at(kind.namespace).watchKindAggregated(kind, opts),
  };
}
