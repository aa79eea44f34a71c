import { describe, expect, it } from 'vitest';
import { networkCondition, serviceCondition, timeCondition } from '../../../controllers/runtime/readiness.js';

const run = (healthy: boolean, unknown = false) => ({ running: true, healthy, unknown });

describe('serviceCondition', () => {
  it('is met when every service runs healthy (or of unknown health) and every required one runs', () => {
    const services = new Map([
      ['apid', run(true)],
      ['machined', run(false, true)],
    ]);
    expect(serviceCondition(services, ['apid', 'machined'])).toEqual([]);
    expect(serviceCondition(new Map(), [])).toEqual([]);
  });

  it('names every service that is not running or not healthy, then each required one missing', () => {
    const services = new Map([
      ['kubelet', run(false)],
      ['apid', run(true)],
      ['etcd', { running: false, healthy: false, unknown: true }],
    ]);
    expect(serviceCondition(services, ['apid', 'machined'])).toEqual([
      { name: 'services', reason: 'etcd not running, kubelet not healthy, machined not running' },
    ]);
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
