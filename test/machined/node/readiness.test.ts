import { describe, expect, it } from 'vitest';
import { serviceConditions } from '../../../src/machined/node/readiness.js';
import type { ServiceInfo } from '../../../src/machined/services/index.js';
import { UNKNOWN_HEALTH } from '../../../src/machined/services/state.js';

const svc = (id: string, state: ServiceInfo['state'], up: boolean): ServiceInfo => ({
  id,
  state,
  up,
  health: UNKNOWN_HEALTH,
  events: [],
  apiControl: false,
});

describe('serviceConditions', () => {
  it('is met when every service is up or settled', () => {
    expect(serviceConditions([svc('apid', 'Running', true), svc('once', 'Finished', false)])).toEqual([]);
    expect(serviceConditions([svc('skipped', 'Skipped', false)])).toEqual([]);
    expect(serviceConditions([])).toEqual([]);
  });

  it('names every service that is neither up nor settled', () => {
    expect(
      serviceConditions([
        svc('apid', 'Running', true),
        svc('etcd', 'Failed', false),
        svc('kubelet', 'Running', false),
        svc('trustd', 'Waiting', false),
      ]),
    ).toEqual([{ name: 'services', reason: 'services not healthy: etcd, kubelet, trustd' }]);
  });
});
