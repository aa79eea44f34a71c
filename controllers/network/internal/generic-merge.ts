// The generic merge controller: every layer's copy in network-config folded into one spec per id in network.
import { NETWORK_CONFIG_NAMESPACE } from '../../../resources/network/config-layer.js';
import { NETWORK_NAMESPACE } from '../../../resources/network/hostname-status.js';
import { type Controller, defineController, input, output } from '../../../src/cosi/controller/index.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import type { Merged } from './merge-layers.js';

export interface MergeSettings<S> {
  /** merge gets the network-config specs sorted by id, and returns the specs wanted in network */
  readonly merge: (specs: readonly S[]) => Merged<S>;
  /** default network-config */
  readonly from?: string;
  /** default network */
  readonly to?: string;
}

/** mergeControllerName: upstream names the controller after the type, `LinkSpecs…` → `LinkMergeControllers…`. */
export const mergeControllerName = (type: string): string => type.replaceAll('Spec', 'MergeController');

/**
 * mergeController writes the merged specs and tears down the ones no longer wanted. An output is
 * destroyed only once its finalizers are released (the spec controllers hold one while the kernel
 * still has the object); one that is tearing down but wanted again is left alone until destroyed,
 * then written afresh.
 */
export function mergeController<S>(type: ResourceType<S>, s: MergeSettings<S>): Controller {
  const from = s.from ?? NETWORK_CONFIG_NAMESPACE;
  const to = s.to ?? NETWORK_NAMESPACE;
  return defineController({
    name: mergeControllerName(type.type),
    inputs: [
      input(type, { namespace: from, kind: 'weak' }),
      input(type, { namespace: to, kind: 'destroy-ready' }),
    ],
    outputs: [output(type, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const specs = await rt.list(type, { namespace: from, signal });
        const merged = s.merge(specs.map((r) => r.spec));
        for (const r of await rt.list(type, { namespace: to, signal })) {
          const unwanted = !merged.has(r.metadata.id);
          if (!unwanted && r.metadata.phase !== 'tearingDown') continue;
          const ready = await rt.teardown(r.metadata, { signal });
          if (ready) await rt.destroy(r.metadata, { signal });
          else if (!unwanted) merged.delete(r.metadata.id); // still finalized: rewrite once it is gone
        }
        for (const [id, spec] of merged)
          await rt.modify(type, id, () => type.codec.copy(spec), { namespace: to, signal });
        rt.resetBackoff();
      }
    },
  });
}
