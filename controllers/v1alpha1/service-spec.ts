// v1alpha1.ServiceSpecController carries ServiceSpecs out: each spec's service runs as it says, a changed
// spec restarts its service alone, and a service whose spec is gone stops. The supervisor is machined's;
// this controller sees it through the host below (controllers never import machined itself).
import { ServiceSpec, type ServiceSpecSpec } from '../../resources/v1alpha1/index.js';
import { defineController, input } from '../../src/cosi/controller/index.js';

/** The supervisor as this controller needs it. */
export interface ServiceSpecHost {
  /** runs the service as the spec says: starts it, restarts it if the spec changed, or leaves it be */
  ensure(id: string, spec: ServiceSpecSpec): Promise<unknown>;
  /** stops and forgets a service whose spec is gone */
  remove(id: string): Promise<void>;
  /** the services it runs from specs */
  ids(): readonly string[];
}

export const SERVICE_SPEC_CONTROLLER = 'v1alpha1.ServiceSpecController';

export const serviceSpecController = (host: ServiceSpecHost) =>
  defineController({
    name: SERVICE_SPEC_CONTROLLER,
    inputs: [input(ServiceSpec)],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const specs = await rt.list(ServiceSpec, { signal });
        const wanted = new Set(specs.map((s) => s.metadata.id));
        // stopped first: a service renamed in its spec must not run twice
        for (const id of host.ids()) if (!wanted.has(id)) await host.remove(id);
        for (const s of specs) await host.ensure(s.metadata.id, s.spec);
        rt.resetBackoff();
      }
    },
  });
