// durableNamespaces: one durable store per namespace under a root directory, for the namespaces that persist.
import { join } from 'node:path';
import type { Namespace } from '../../resource/kind.js';
import type { ResourceRegistry } from '../../resource/registry.js';
import { type DurableStore, newDurableStore } from './store.js';

export interface DurableNamespacesOptions {
  /** parent of the per-namespace directories */
  readonly root: string;
  /** the namespaces to persist; every namespace when omitted */
  readonly namespaces?: readonly Namespace[];
  readonly registry?: ResourceRegistry;
  readonly compactEvery?: number;
  readonly onCompactionError?: (e: unknown, namespace: Namespace) => void;
}

export interface DurableNamespaces {
  /** storeFor gives the namespace's store (the same one on every call), or undefined for an ephemeral namespace. */
  storeFor(namespace: Namespace): DurableStore | undefined;
  /** close closes every store handed out. */
  close(): Promise<void>;
}

/** namespaceDir maps any namespace to one safe directory name (no separators, no dot names, never empty). */
export const namespaceDir = (namespace: Namespace): string =>
  `ns-${namespace.replace(/[^A-Za-z0-9_-]/g, (c) =>
    [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
  )}`;

/**
 * durableNamespaces builds the stores for a namespaced state. Each store is bound to its namespace
 * and opened lazily by the in-memory state's first load:
 *
 *   const durable = durableNamespaces({ root: stateDir, namespaces: ['config', 'secrets'] });
 *   const core = namespaced((ns) => newInmemState({ backingStore: durable.storeFor(ns) }));
 *   // on shutdown, after the state stops writing:
 *   await durable.close();
 *
 * Every other namespace gets no backing store and lives in memory only.
 */
export function durableNamespaces(opts: DurableNamespacesOptions): DurableNamespaces {
  const only = opts.namespaces ? new Set(opts.namespaces) : undefined;
  const stores = new Map<Namespace, DurableStore>();
  return {
    storeFor(namespace) {
      if (only && !only.has(namespace)) return undefined;
      let s = stores.get(namespace);
      if (!s) {
        const report = opts.onCompactionError;
        s = newDurableStore({
          dir: join(opts.root, namespaceDir(namespace)),
          namespace,
          ...(opts.registry ? { registry: opts.registry } : {}),
          ...(opts.compactEvery !== undefined ? { compactEvery: opts.compactEvery } : {}),
          ...(report ? { onCompactionError: (e: unknown) => report(e, namespace) } : {}),
        });
        stores.set(namespace, s);
      }
      return s;
    },
    async close() {
      await Promise.all([...stores.values()].map((s) => s.close()));
    },
  };
}
