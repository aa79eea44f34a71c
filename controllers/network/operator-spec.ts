// network.OperatorSpecController: runs an operator (a DHCPv4 client today) for each OperatorSpec whose
// link exists (and is up, when the spec requires it), restarts it when its spec changes, stops it when
// the spec or the link goes, and writes what it learnt as operator-layer specs into network-config.
import {
  AddressSpec,
  addressID,
  HOSTNAME_ID,
  HostnameSpec,
  LinkSpec,
  LinkStatus,
  linkID,
  NETWORK_CONFIG_NAMESPACE,
  NETWORK_NAMESPACE,
  OperationalState,
  Operator,
  OperatorSpec,
  type OperatorSpecSpec,
  operatorSpecEqualIgnoringLayer,
  RESOLVER_ID,
  ResolverSpec,
  RouteSpec,
  routeID,
  TIME_SERVER_ID,
  TimeServerSpec,
} from '../../resources/network/index.js';
import { defineController, input, kindOf, output } from '../../src/cosi/controller/index.js';
import { NO_SPECS, type OperatorSpecs } from './internal/dhcp4-specs.js';

const NAME = 'network.OperatorSpecController';

/** A running operator: it reports specs through the callback it was started with. */
export interface OperatorRun {
  /** stop ends it; `release` gives a DHCP lease back (node shutdown) */
  stop(release: boolean): void;
}

export interface OperatorStart {
  readonly spec: OperatorSpecSpec;
  readonly onSpecs: (specs: OperatorSpecs) => void;
  readonly log: (line: string) => void;
}

export interface OperatorSpecOptions {
  /** starts a DHCPv4 client for a spec (the real one lives in dhcp4-operator.ts) */
  readonly dhcp4: (o: OperatorStart) => OperatorRun;
}

interface Running {
  readonly spec: OperatorSpecSpec;
  readonly run: OperatorRun;
  specs: OperatorSpecs;
}

const OUTPUT_KINDS = [AddressSpec, LinkSpec, RouteSpec, HostnameSpec, ResolverSpec, TimeServerSpec].map((t) =>
  kindOf(t, NETWORK_CONFIG_NAMESPACE),
);

export function operatorSpecController(opts: OperatorSpecOptions) {
  return defineController({
    name: NAME,
    inputs: [
      input(OperatorSpec, { namespace: NETWORK_NAMESPACE }),
      input(LinkStatus, { namespace: NETWORK_NAMESPACE }),
    ],
    outputs: [
      output(AddressSpec, 'shared'),
      output(LinkSpec, 'shared'),
      output(RouteSpec, 'shared'),
      output(HostnameSpec, 'shared'),
      output(ResolverSpec, 'shared'),
      output(TimeServerSpec, 'shared'),
    ],
    async run(rt, { signal, logger }) {
      const running = new Map<string, Running>();
      const stopAll = (release: boolean) => {
        for (const r of running.values()) r.run.stop(release);
        running.clear();
      };
      // the node going down releases its leases; a controller restart keeps them (the next run re-requests)
      signal.addEventListener('abort', () => stopAll(true), { once: true });
      try {
        for await (const _ of rt.events(signal)) {
          const linksUp = new Map<string, boolean>();
          for (const l of await rt.list(LinkStatus, { signal }))
            linksUp.set(
              l.metadata.id,
              l.spec.operationalState === OperationalState.Up ||
                l.spec.operationalState === OperationalState.Unknown,
            );
          const wanted = new Map<string, OperatorSpecSpec>();
          for (const s of await rt.list(OperatorSpec, { signal })) {
            if (s.metadata.phase !== 'running') continue;
            const up = linksUp.get(s.spec.linkName);
            if (up === undefined || (s.spec.requireUp && !up)) continue;
            if (s.spec.operator !== Operator.DHCP4) continue; // DHCPv6 and VIP are not built yet
            wanted.set(s.metadata.id, s.spec);
          }
          for (const [id, r] of running)
            if (!wanted.has(id) || !operatorSpecEqualIgnoringLayer(wanted.get(id)!, r.spec)) {
              logger.info(`stopping operator ${id}`);
              r.run.stop(false);
              running.delete(id);
            }
          for (const [id, spec] of wanted) {
            if (running.has(id)) continue;
            logger.info(`starting operator ${id}`);
            const entry: Running = { spec, specs: NO_SPECS, run: { stop: () => {} } };
            running.set(id, entry);
            Object.assign(entry, {
              run: opts.dhcp4({
                spec,
                onSpecs: (specs) => {
                  if (running.get(id) !== entry) return; // a report from an operator already stopped
                  entry.specs = specs;
                  rt.queueReconcile();
                },
                log: (line) => logger.info(line),
              }),
            });
          }
          rt.startTrackingOutputs();
          for (const r of running.values()) await writeSpecs(rt, `dhcp4/${r.spec.linkName}`, r.specs, signal);
          await rt.cleanupOutputs(...OUTPUT_KINDS);
        }
      } finally {
        stopAll(signal.aborted);
      }
    },
  });
}

type Writer = Parameters<Parameters<typeof defineController>[0]['run']>[0];

async function writeSpecs(rt: Writer, prefix: string, s: OperatorSpecs, signal: AbortSignal): Promise<void> {
  const ns = { signal, namespace: NETWORK_CONFIG_NAMESPACE } as const;
  for (const a of s.addresses)
    await rt.modify(AddressSpec, `${prefix}/${addressID(a.linkName, a.address)}`, () => ({ ...a }), ns);
  for (const r of s.routes)
    await rt.modify(
      RouteSpec,
      `${prefix}/${routeID(r.table, r.family, r.destination, r.gateway, r.priority, r.outLinkName)}`,
      () => ({ ...r }),
      ns,
    );
  for (const l of s.links) await rt.modify(LinkSpec, `${prefix}/${linkID(l.name)}`, () => ({ ...l }), ns);
  for (const h of s.hostnames)
    await rt.modify(HostnameSpec, `${prefix}/${HOSTNAME_ID}`, () => ({ ...h }), ns);
  for (const r of s.resolvers)
    await rt.modify(ResolverSpec, `${prefix}/${RESOLVER_ID}`, () => ({ ...r }), ns);
  for (const t of s.timeServers)
    await rt.modify(TimeServerSpec, `${prefix}/${TIME_SERVER_ID}`, () => ({ ...t }), ns);
}
