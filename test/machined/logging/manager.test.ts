import { describe, expect, it } from 'vitest';
import { machinedLogger } from '../../../src/machined/logging/machined-log.js';
import { KERNEL_LOG, LoggingManager, MACHINED_LOG } from '../../../src/machined/logging/manager.js';

describe('LoggingManager', () => {
  it('makes one ring per id on first use and keeps it', () => {
    const logs = new LoggingManager();
    const a = logs.serviceLog('apid');
    expect(logs.serviceLog('apid')).toBe(a);
    expect(logs.find('etcd')).toBeUndefined();
    logs.serviceLog(KERNEL_LOG);
    expect(logs.ids()).toEqual(['apid', 'kernel']);
  });

  it("writes machined's own log with timestamps and mirrors it with a prefix", () => {
    const logs = new LoggingManager();
    const mirrored: string[] = [];
    const log = machinedLogger(logs.serviceLog(MACHINED_LOG), {
      mirror: (l) => mirrored.push(l),
      now: () => new Date('2026-01-02T03:04:05.000Z'),
    });
    log.line('task startAllServices (1/1): done, 1.2s');
    log.warn('controller failed', { controller: 'x', error: new Error('boom') });
    expect(logs.serviceLog(MACHINED_LOG).slice().toString()).toBe(
      '2026-01-02T03:04:05.000Z task startAllServices (1/1): done, 1.2s\n' +
        '2026-01-02T03:04:05.000Z warn controller failed {"controller":"x","error":"boom"}\n',
    );
    expect(mirrored[0]).toBe('[keel] task startAllServices (1/1): done, 1.2s');
  });

  it('keeps logging when the mirror throws', () => {
    const logs = new LoggingManager();
    const log = machinedLogger(logs.serviceLog(MACHINED_LOG), {
      mirror: () => {
        throw new Error('console gone');
      },
    });
    log.info('still here');
    expect(logs.serviceLog(MACHINED_LOG).slice().toString()).toContain('info still here');
  });
});
