// ServiceController mirrors service state events into Services.v1alpha1.talos.dev resources.

import { Service, type ServiceStateSpec } from '../../resources/v1alpha1/service.js';
import { defineController, output } from '../../src/cosi/controller/controller.js';
import { isNotFound } from '../../src/cosi/state/errors.js';

/** The slice of a machine event the controller reads (controllers never import machined itself). */
export interface ServiceStateEventLike {
  readonly payload:
    | {
        readonly type: 'machine.ServiceStateEvent';
        readonly service: string;
        readonly action: string;
        readonly health: { readonly healthy: boolean; readonly unknown: boolean };
      }
    | { readonly type: string };
}

/** ServiceEventSource is the events bus as this controller needs it: every kept event, then follow. */
export interface ServiceEventSource {
  watch(opts: { signal: AbortSignal; tailEvents: number }): AsyncIterable<ServiceStateEventLike>;
}

/**
 * serviceController replays the whole event history (so a restarted controller catches up), then
 * follows it: RUNNING creates or updates the resource, any other state destroys it, as upstream.
 */
export const serviceController = (events: ServiceEventSource) =>
  defineController({
    name: 'v1alpha1.ServiceController',
    outputs: [output(Service, 'exclusive')],
    async run(rt, { signal }) {
      for await (const ev of events.watch({ signal, tailEvents: -1 })) {
        const p = ev.payload;
        if (!isServiceState(p)) continue;
        const spec = specOf(p);
        if (spec) {
          await rt.modify(Service, p.service, (s) => {
            Object.assign(s, spec);
          });
          continue;
        }
        try {
          await rt.destroy(Service.pointer(p.service));
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      }
    },
  });

const isServiceState = (p: ServiceStateEventLike['payload']): p is Extract<typeof p, { service: string }> =>
  p.type === 'machine.ServiceStateEvent';

/** specOf gives the resource spec for a RUNNING event, and undefined for states that remove it. */
export function specOf(p: {
  readonly action: string;
  readonly health: { readonly healthy: boolean; readonly unknown: boolean };
}): ServiceStateSpec | undefined {
  return p.action === 'RUNNING'
    ? { running: true, healthy: p.health.healthy, unknown: p.health.unknown }
    : undefined;
}
