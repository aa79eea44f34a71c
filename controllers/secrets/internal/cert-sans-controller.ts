// The loop the root-driven CertSANs controllers share: no root → no SANs; no node name or addresses yet
// → wait (a wrong set would force a re-issue); otherwise publish the set the domain function computes.
import {
  HOSTNAME_ID,
  HostnameStatus,
  type HostnameStatusSpec,
  NodeAddress,
  type NodeAddressSpec,
} from '../../../resources/network/index.js';
import { CertSAN, type CertSANSpec } from '../../../resources/secrets/index.js';
import { type Controller, defineController, input, output } from '../../../src/cosi/controller/index.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';
import { CERT_NODE_ADDRESS_ID, nodeIdentityInputs } from './node.js';
import { destroyOwned } from './teardown.js';

export interface RootCertSANsSettings<R> {
  readonly name: string;
  readonly root: ResourceType<R>;
  readonly rootId: string;
  /** the CertSAN id this controller writes */
  readonly outputId: string;
  readonly sans: (root: R, hostname: HostnameStatusSpec, addresses: NodeAddressSpec) => CertSANSpec;
}

/** rootCertSANsController defines a controller publishing one CertSAN set derived from a root secret. */
export function rootCertSANsController<R>(s: RootCertSANsSettings<R>): Controller {
  return defineController({
    name: s.name,
    inputs: [input(s.root, { id: s.rootId }), ...nodeIdentityInputs],
    outputs: [output(CertSAN, 'shared')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const root = await rt.getOrNull(s.root, s.rootId, { signal });
        if (!root) {
          await destroyOwned(rt, CertSAN, s.name, signal);
          continue;
        }
        const hostname = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
        const addresses = await rt.getOrNull(NodeAddress, CERT_NODE_ADDRESS_ID, { signal });
        if (!hostname || !addresses) continue;
        const want = s.sans(root.spec, hostname.spec, addresses.spec);
        await rt.modify(CertSAN, s.outputId, () => want, { signal });
        rt.resetBackoff();
      }
    },
  });
}
