import { describe, expect, it, onTestFinished } from 'vitest';
import { installEmergencyHandlers } from '../../src/machined/emergency.js';

describe('emergency path', () => {
  it('runs the fatal sequence once; later fatal errors are only logged', async () => {
    const calls: string[] = [];
    const log: string[] = [];
    let release: () => void = () => {};
    const e = installEmergencyHandlers({
      log: (l) => log.push(l),
      onFatal: (kind, error) => {
        calls.push(`${kind}: ${(error as Error).message}`);
        return new Promise<void>((r) => {
          release = r;
        });
      },
    });
    onTestFinished(() => e.uninstall());
    e.fatal(new Error('sequence failed'));
    e.fatal(new Error('second'));
    release();
    expect(calls).toEqual(['fatal: sequence failed']);
    expect(log.map((l) => l.split('\n')[0])).toEqual([
      'emergency: fatal: Error: sequence failed',
      'emergency: fatal: Error: second',
    ]);
  });

  it('listens for uncaught exceptions and unhandled rejections until uninstalled', () => {
    const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    const e = installEmergencyHandlers({ log: () => {}, onFatal: async () => {} });
    expect(process.listenerCount('uncaughtException')).toBe(before[0]! + 1);
    expect(process.listenerCount('unhandledRejection')).toBe(before[1]! + 1);
    e.uninstall();
    expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(
      before,
    );
  });
});
