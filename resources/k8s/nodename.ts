// Nodenames.kubernetes.talos.dev (`nodename`): the name the node registers with in Kubernetes, from its
// hostname (or FQDN, when the config asks), and whether it registers at all.
import { defineResource, type ResourceOf } from '../../src/cosi/resource/typed.js';
import { K8S_NAMESPACE } from './namespace.js';

export const NODENAME_ID = 'nodename';

export interface NodenameSpec {
  nodename: string;
  /** the HostnameStatus version it was made from, so a reader can tell it follows a rename */
  hostnameVersion: string;
  skipNodeRegistration: boolean;
}

export const Nodename = defineResource<NodenameSpec>({
  type: 'Nodenames.kubernetes.talos.dev',
  defaultNamespace: K8S_NAMESPACE,
  printColumns: [{ name: 'Nodename', jsonPath: '{.nodename}' }],
  empty: () => ({ nodename: '', hostnameVersion: '', skipNodeRegistration: false }),
  copy: (s) => ({ ...s }),
  equal: (a, b) =>
    a.nodename === b.nodename &&
    a.hostnameVersion === b.hostnameVersion &&
    a.skipNodeRegistration === b.skipNodeRegistration,
  proto: {
    nodename: { no: 1, kind: 'string' },
    hostnameVersion: { no: 2, kind: 'string' },
    skipNodeRegistration: { no: 3, kind: 'bool' },
  },
  fromProto: (v) => ({
    nodename: String(v.nodename ?? ''),
    hostnameVersion: String(v.hostnameVersion ?? ''),
    skipNodeRegistration: v.skipNodeRegistration === true,
  }),
});
export type Nodename = ResourceOf<typeof Nodename>;
