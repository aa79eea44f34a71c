// network.HostnameSpecController: the merged HostnameSpec → the kernel's hostname and domain name →
// HostnameStatus. A container node shares its host's UTS namespace, so there it only reports the spec.
import {
  HostnameSpec,
  HostnameStatus,
  NETWORK_NAMESPACE,
  validateHostnameSpec,
} from '../../resources/network/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { isNotFound } from '../../src/cosi/state/errors.js';
import { setdomainname, sethostname } from '../../src/sys/hostname.js';

const NAME = 'network.HostnameSpecController';

export interface HostnameSpecOptions {
  /** applies a hostname and domain name to the kernel; absent (container mode) nothing is set */
  readonly apply?: ((hostname: string, domainname: string) => void) | undefined;
}

/** kernelHostname sets both names of the UTS namespace machined runs in. */
export const kernelHostname = (hostname: string, domainname: string): void => {
  sethostname(hostname);
  setdomainname(domainname);
};

/** hostnameSpecController applies each running spec and mirrors it; a spec torn down takes its status along. */
export function hostnameSpecController(opts: HostnameSpecOptions = {}) {
  return defineController({
    name: NAME,
    inputs: [input(HostnameSpec, { namespace: NETWORK_NAMESPACE, kind: 'strong' })],
    outputs: [output(HostnameStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      const applied = new Map<string, string>();
      for await (const _ of rt.events(signal)) {
        for (const spec of await rt.list(HostnameSpec, { signal })) {
          const id = spec.metadata.id;
          if (spec.metadata.phase === 'tearingDown') {
            await rt.destroy(HostnameStatus.pointer(id), { signal }).catch(ignoreNotFound);
            await rt.removeFinalizer(spec.metadata, NAME, { signal });
            applied.delete(id);
            continue;
          }
          if (!spec.metadata.finalizers.has(NAME)) await rt.addFinalizer(spec.metadata, NAME, { signal });
          const { hostname, domainname } = spec.spec;
          const invalid = validateHostnameSpec(spec.spec);
          if (invalid) {
            // a bad spec is the config's error, reported once; retrying cannot fix it
            logger.error(`hostname spec ${id}: ${invalid}`);
            continue;
          }
          const key = `${hostname}\n${domainname}`;
          if (opts.apply && applied.get(id) !== key) {
            logger.info(`setting hostname ${hostname}${domainname ? ` domainname ${domainname}` : ''}`);
            opts.apply(hostname, domainname);
            applied.set(id, key);
          }
          await rt.modify(
            HostnameStatus,
            id,
            (s) => {
              s.hostname = hostname;
              s.domainname = domainname;
            },
            { signal },
          );
        }
        rt.resetBackoff();
      }
    },
  });
}

const ignoreNotFound = (e: unknown) => {
  if (!isNotFound(e)) throw e;
};
