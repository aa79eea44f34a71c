// SpecHost carries ServiceSpecs out on the supervisor: a new spec loads and starts its service (once the
// Boot sequence has started the others), a changed one restarts that service alone with its new
// definition, a gone one stops and unloads it. It remembers the digest of the spec each service runs, so
// a controller that runs again changes nothing.
import { createHash } from 'node:crypto';
import type { ServiceSpecSpec } from '../../../resources/v1alpha1/index.js';
import { ServiceError } from './errors.js';
import { definitionOf, type ServiceKind, type SpecEnvironment } from './spec-definition.js';
import type { Supervisor } from './supervisor.js';

export type SpecOutcome = 'loaded' | 'started' | 'restarted' | 'unchanged' | 'denied';

export interface SpecHostOptions {
  readonly supervisor: Supervisor;
  readonly kinds: Readonly<Record<string, ServiceKind>>;
  readonly env?: SpecEnvironment;
  readonly log?: (line: string) => void;
}

export class SpecHost {
  readonly #opts: SpecHostOptions;
  /** service id → digest of the spec it runs */
  readonly #applied = new Map<string, string>();

  constructor(opts: SpecHostOptions) {
    this.#opts = opts;
  }

  /** ids lists the services this host runs from specs. */
  ids(): string[] {
    return [...this.#applied.keys()];
  }

  /** ensure makes the service run as the spec says; during shutdown it does nothing. */
  async ensure(id: string, spec: ServiceSpecSpec): Promise<SpecOutcome> {
    const { supervisor, kinds, env = {}, log } = this.#opts;
    if (supervisor.denied) return 'denied';
    const digest = specDigest(spec);
    const applied = this.#applied.get(id);
    if (applied === digest) return 'unchanged';
    if (applied === undefined && supervisor.list().some((s) => s.id === id))
      throw new ServiceError(
        'busy',
        `service ${JSON.stringify(id)} is machined's own: a spec cannot redefine it`,
      );
    const def = definitionOf(id, spec, kinds, env);
    if (applied === undefined) {
      supervisor.load(def);
      this.#applied.set(id, digest);
      // before the Boot sequence starts everything (and so before /var is mounted) a service only loads
      if (!supervisor.startedAll) {
        log?.(`service ${id}: loaded from its spec, to start with the others`);
        return 'loaded';
      }
      supervisor.start(id);
      log?.(`service ${id}: started from its spec`);
      return 'started';
    }
    log?.(`service ${id}: its spec changed, restarting it alone`);
    await supervisor.replace(def);
    this.#applied.set(id, digest);
    return 'restarted';
  }

  /** remove stops a service whose spec is gone and forgets it. */
  async remove(id: string): Promise<void> {
    if (!this.#applied.has(id)) return;
    this.#opts.log?.(`service ${id}: its spec is gone, stopping it`);
    this.#applied.delete(id);
    await this.#opts.supervisor.unload(id);
  }
}

/** specDigest: equal for equal specs, whatever the order of their object keys. */
export function specDigest(spec: ServiceSpecSpec): string {
  return createHash('sha256').update(canonicalJSON(spec)).digest('hex');
}

function canonicalJSON(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJSON((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
