// network.HostnameSpecController: the merged HostnameSpec → the kernel's hostname and domain name →
// HostnameStatus. A container node shares its host's UTS namespace, so there it only reports the spec.
import {
  HostnameSpec,
  type HostnameSpecSpec,
  HostnameStatus,
  type HostnameStatusSpec,
  validateHostnameSpec,
} from '../../resources/network/index.js';
import { setdomainname, sethostname } from '../../src/sys/hostname.js';
import { specMirrorController } from './internal/spec-mirror.js';

export interface HostnameSpecOptions {
  /** applies a hostname and domain name to the kernel; absent (container mode) nothing is set */
  readonly apply?: ((hostname: string, domainname: string) => void) | undefined;
}

/** kernelHostname sets both names of the UTS namespace machined runs in. */
export const kernelHostname = (hostname: string, domainname: string): void => {
  sethostname(hostname);
  setdomainname(domainname);
};

export function hostnameSpecController(opts: HostnameSpecOptions = {}) {
  const set = opts.apply;
  return specMirrorController<HostnameSpecSpec, HostnameStatusSpec>({
    name: 'network.HostnameSpecController',
    spec: HostnameSpec,
    status: HostnameStatus,
    toStatus: (s) => ({ hostname: s.hostname, domainname: s.domainname }),
    invalid: validateHostnameSpec,
    ...(set
      ? {
          apply: (s, logger) => {
            logger.info(`setting hostname ${s.hostname}${s.domainname ? ` domainname ${s.domainname}` : ''}`);
            set(s.hostname, s.domainname);
          },
        }
      : {}),
  });
}
