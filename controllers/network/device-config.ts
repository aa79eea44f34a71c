// network.DeviceConfigController: one DeviceConfigSpec per v1alpha1 interfaces[] entry, selectors resolved.
import { MACHINE_CONFIG_ID, MachineConfig } from '../../resources/config/machine-config.js';
import { DeviceConfigSpec } from '../../resources/network/device-config-spec.js';
import { LinkStatus } from '../../resources/network/link-status.js';
import { v1alpha1Of } from '../../src/config/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { configOf } from '../config/config-of.js';
import { resolveDevices } from './internal/device-selector.js';

/**
 * DeviceConfigController publishes the v1alpha1 interfaces as DeviceConfigSpecs, with deviceSelector and
 * bond deviceSelectors resolved against the LinkStatuses; an entry no link matches is logged and skipped,
 * and it appears once a matching link does.
 */
export const DeviceConfigController = defineController({
  name: 'network.DeviceConfigController',
  inputs: [
    input(MachineConfig, { id: MACHINE_CONFIG_ID, kind: 'weak' }),
    input(LinkStatus, { kind: 'weak' }),
  ],
  outputs: [output(DeviceConfigSpec, 'exclusive')],
  async run(rt, { signal, logger }) {
    for await (const _ of rt.events(signal)) {
      const links = (await rt.list(LinkStatus, { signal })).map((l) => ({ id: l.metadata.id, spec: l.spec }));
      const mc = await rt.getOrNull(MachineConfig, MACHINE_CONFIG_ID, { signal }); // absent = no devices yet
      const interfaces = (mc && v1alpha1Of(configOf(mc.spec))?.machine?.network?.interfaces) ?? [];
      rt.startTrackingOutputs();
      const { devices, unmatched } = resolveDevices(interfaces, links);
      for (const u of unmatched)
        logger.warn('failed to select an interface for a device', { index: u.index, error: u.reason });
      for (const d of devices)
        await rt.modify(
          DeviceConfigSpec,
          d.id,
          (spec) => {
            spec.device = d.device as Record<string, unknown>;
          },
          { signal },
        );
      await rt.cleanupOutputs(DeviceConfigSpec);
      rt.resetBackoff();
    }
  },
});
