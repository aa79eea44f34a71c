import { describe, expect, it } from 'vitest';
import { canTakeOver, isSequenceName, SEQUENCES } from '../../../src/machined/sequencer/sequence.js';

describe('takeover matrix', () => {
  // running → the requests allowed to cancel it; everything else is LOCKED
  const allowed: Record<string, string[]> = {
    initialize: ['maintenanceUpgrade', 'reboot', 'emergencyVolumeCleanup'],
    boot: ['reboot', 'reset', 'upgrade', 'emergencyVolumeCleanup'],
    reboot: ['reboot'],
    reset: ['reboot'],
  };

  for (const running of SEQUENCES.filter((s) => s !== 'noop'))
    it(`decides every request while ${running} runs`, () => {
      for (const requested of SEQUENCES)
        expect([requested, canTakeOver(requested, running)]).toEqual([
          requested,
          (allowed[running] ?? []).includes(requested),
        ]);
    });

  it('lets anything start when nothing (or noop) runs', () => {
    for (const requested of SEQUENCES) {
      expect(canTakeOver(requested, undefined)).toBe(true);
      expect(canTakeOver(requested, 'noop')).toBe(true);
    }
  });

  it('knows upstream sequence names', () => {
    expect(isSequenceName('stageUpgrade')).toBe(true);
    expect(isSequenceName('bootstrap')).toBe(false);
  });
});
