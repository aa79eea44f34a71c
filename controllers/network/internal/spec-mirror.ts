// The loop the hostname, resolver and time server spec controllers share: each running spec of the
// `network` namespace is applied (if there is anything to apply) and mirrored into its status; a spec
// torn down takes its status along before its finalizer is released.
import { NETWORK_NAMESPACE } from '../../../resources/network/index.js';
import type { Logger } from '../../../src/cosi/controller/index.js';
import { type Controller, defineController, input, output } from '../../../src/cosi/controller/index.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import { isNotFound } from '../../../src/cosi/state/errors.js';

export interface SpecMirrorSettings<S, T> {
  readonly name: string;
  readonly spec: ResourceType<S>;
  readonly status: ResourceType<T>;
  readonly toStatus: (spec: S) => T;
  /** why a spec cannot be applied, or undefined; a refused spec is logged, not retried */
  readonly invalid?: (spec: S) => string | undefined;
  /** applies a spec to the system; called again only when the status it would produce changes */
  readonly apply?: (spec: S, logger: Logger) => void;
}

export function specMirrorController<S, T>(s: SpecMirrorSettings<S, T>): Controller {
  return defineController({
    name: s.name,
    inputs: [input(s.spec, { namespace: NETWORK_NAMESPACE, kind: 'strong' })],
    outputs: [output(s.status, 'exclusive')],
    async run(rt, { signal, logger }) {
      const applied = new Map<string, T>();
      for await (const _ of rt.events(signal)) {
        for (const spec of await rt.list(s.spec, { signal })) {
          const id = spec.metadata.id;
          if (spec.metadata.phase === 'tearingDown') {
            await rt.destroy(s.status.pointer(id, NETWORK_NAMESPACE), { signal }).catch((e: unknown) => {
              if (!isNotFound(e)) throw e;
            });
            await rt.removeFinalizer(spec.metadata, s.name, { signal });
            applied.delete(id);
            continue;
          }
          if (!spec.metadata.finalizers.has(s.name)) await rt.addFinalizer(spec.metadata, s.name, { signal });
          const why = s.invalid?.(spec.spec);
          if (why) {
            logger.error(`${s.spec.type} ${id}: ${why}`);
            continue;
          }
          const want = s.toStatus(spec.spec);
          const before = applied.get(id);
          if (s.apply && !(before && s.status.codec.equal(before, want))) {
            s.apply(spec.spec, logger);
            applied.set(id, want);
          }
          await rt.modify(s.status, id, () => want, { signal });
        }
        rt.resetBackoff();
      }
    },
  });
}
