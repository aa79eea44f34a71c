// k8s.NodenameController: Nodename `nodename` — the name the kubelet registers the node with, made from
// the hostname (the FQDN with machine.kubelet.registerWithFQDN), and machine.kubelet.skipNodeRegistration.
// It follows a rename; without a config or a hostname it waits and keeps what it made.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { NODENAME_ID, Nodename } from '../../resources/k8s/index.js';
import { fqdn, HOSTNAME_ID, HostnameStatus, NETWORK_NAMESPACE } from '../../resources/network/index.js';
import { accessors } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { versionString } from '../../src/cosi/resource/version.js';
import { configOf } from '../config/config-of.js';
import { NodenameError, nodenameFromHostname } from './internal/nodename.js';

export const NODENAME_CONTROLLER = 'k8s.NodenameController';

export const NodenameController = defineController({
  name: NODENAME_CONTROLLER,
  inputs: [
    input(MachineConfig, { id: MACHINE_CONFIG_ID }),
    input(HostnameStatus, { namespace: NETWORK_NAMESPACE, id: HOSTNAME_ID }),
  ],
  outputs: [output(Nodename, 'exclusive')],
  async run(rt, { signal, logger }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal });
      const host = await rt.getOrNull(HostnameStatus, HOSTNAME_ID, { signal });
      const m = cfg ? accessors(configOf(cfg.spec)) : undefined;
      if (!m || !host || m.machineType() === 'unknown') continue;
      const kubelet = m.kubelet();
      const hostname = kubelet.registerWithFQDN ? fqdn(host.spec) : host.spec.hostname;
      let nodename: string;
      try {
        nodename = nodenameFromHostname(hostname);
      } catch (e) {
        if (!(e instanceof NodenameError)) throw e;
        logger.error('no node name', { error: e.message });
        continue;
      }
      await rt.modify(
        Nodename,
        NODENAME_ID,
        () => ({
          nodename,
          hostnameVersion: versionString(host.metadata.version),
          skipNodeRegistration: kubelet.skipNodeRegistration === true,
        }),
        { signal },
      );
      rt.resetBackoff();
    }
  },
});
