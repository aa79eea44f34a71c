// runtime.DevicesStatusController: devices are ready once udevd runs and is healthy, and stay so.
import { describe, expect, it } from 'vitest';
import {
  DEVICES_STATUS_CONTROLLER,
  DevicesStatusController,
  devicesSettled,
} from '../../../controllers/runtime/index.js';
import { DEVICES_ID, DevicesStatus } from '../../../resources/runtime/index.js';
import { Service } from '../../../resources/v1alpha1/index.js';
import { assertResource } from '../../../src/cosi/testing/assert-resources.js';
import { startRuntime } from '../network/env.js';

describe('devicesSettled', () => {
  it('needs udevd both running and healthy', () => {
    expect(devicesSettled(undefined)).toBe(false);
    expect(devicesSettled({ running: true, healthy: false, unknown: true })).toBe(false);
    expect(devicesSettled({ running: false, healthy: true, unknown: false })).toBe(false);
    expect(devicesSettled({ running: true, healthy: true, unknown: false })).toBe(true);
  });
});

describe('runtime.DevicesStatusController', () => {
  it('reports devices ready once udevd runs healthy', async () => {
    const env = startRuntime([DevicesStatusController]);
    const udevd = (running: boolean, healthy: boolean) =>
      env.state.modify(Service.new('runtime', 'udevd'), (r) => {
        (r as Service).spec = { running, healthy, unknown: !healthy };
      });
    try {
      await udevd(true, false);
      await udevd(true, true);
      await assertResource(env.state, DevicesStatus, DEVICES_ID, (r) => {
        expect(r.metadata.owner).toBe(DEVICES_STATUS_CONTROLLER);
        expect(r.spec.ready).toBe(true);
      });
    } finally {
      await env.stop();
    }
  });
});
