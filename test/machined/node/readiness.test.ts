import { describe, expect, it } from 'vitest';
import { networkCondition, serviceConditions, timeCondition } from '../../../src/machined/node/readiness.js';
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

describe('timeCondition and networkCondition', () => {
  it('say what the clock and the network still wait on, in upstream words', () => {
    expect(timeCondition(undefined)).toEqual([{ name: 'time', reason: 'time status is not known yet' }]);
    expect(timeCondition({ synced: false, epoch: 0, syncDisabled: false })).toEqual([
      { name: 'time', reason: 'time is not synced' },
    ]);
    expect(timeCondition({ synced: true, epoch: 1, syncDisabled: false })).toEqual([]);
    const flags = { addressReady: true, connectivityReady: false, hostnameReady: false, etcFilesReady: true };
    expect(networkCondition(flags)).toEqual([
      { name: 'network', reason: 'waiting on: connectivity, hostname' },
    ]);
    expect(networkCondition({ ...flags, connectivityReady: true, hostnameReady: true })).toEqual([]);
    expect(networkCondition(undefined)).toMatchObject([{ name: 'network' }]);
  });
});
