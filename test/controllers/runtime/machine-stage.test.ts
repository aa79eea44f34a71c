import { describe, expect, it } from 'vitest';
import {
  INITIAL_STAGE,
  nextStage,
  RUNNING_MAINTENANCE_TASK,
  type StageEventPayload,
} from '../../../controllers/runtime/machine-stage.js';

const seq = (sequence: string, action: string, error?: string): StageEventPayload => ({
  type: 'machine.SequenceEvent',
  sequence,
  action,
  ...(error ? { error: { code: error, message: 'boom' } } : {}),
});
const phase = (p: string): StageEventPayload => ({ type: 'machine.PhaseEvent', phase: p, action: 'START' });
const maintenance = (action: string): StageEventPayload => ({
  type: 'machine.TaskEvent',
  task: RUNNING_MAINTENANCE_TASK,
  action,
});

/** stages folds the events and lists the stage after each. */
const stages = (...events: StageEventPayload[]) => {
  let s = INITIAL_STAGE;
  return events.map((e) => {
    s = nextStage(s, e);
    return s.stage;
  });
};

describe('nextStage', () => {
  it('follows a boot with a stored config: booting until the boot sequence stops cleanly', () => {
    expect(
      stages(
        seq('initialize', 'START'),
        seq('initialize', 'STOP'),
        seq('boot', 'START'),
        seq('boot', 'STOP'),
      ),
    ).toEqual(['booting', 'booting', 'booting', 'running']);
  });

  it('keeps maintenance while Initialize runs beside it, and boots once a config came', () => {
    expect(
      stages(
        maintenance('START'),
        seq('initialize', 'START'),
        seq('initialize', 'STOP'),
        maintenance('STOP'),
        seq('boot', 'START'),
        seq('boot', 'STOP'),
      ),
    ).toEqual(['maintenance', 'maintenance', 'maintenance', 'booting', 'booting', 'running']);
  });

  it('does not call a failed boot running, and a fatal refusal means rebooting', () => {
    expect(stages(seq('boot', 'START'), seq('boot', 'STOP', 'FATAL'))).toEqual(['booting', 'booting']);
    expect(stages(seq('boot', 'START'), seq('reboot', 'NOOP', 'LOCKED'))).toEqual(['booting', 'booting']);
    expect(stages(seq('boot', 'START'), seq('reboot', 'NOOP', 'FATAL'))).toEqual(['booting', 'rebooting']);
  });

  it('names the power and reset sequences, and installing only in the install phase', () => {
    expect(stages(seq('reboot', 'START'))).toEqual(['rebooting']);
    expect(stages(seq('shutdown', 'START'))).toEqual(['shutting down']);
    expect(stages(seq('reset', 'START'))).toEqual(['resetting']);
    expect(stages(seq('upgrade', 'START'), phase('kexec'))).toEqual(['upgrading', 'rebooting']);
    expect(
      stages(seq('boot', 'START'), seq('boot', 'STOP'), seq('install', 'START'), phase('install')),
    ).toEqual(['booting', 'running', 'running', 'installing']);
    // a phase named install outside the install sequence changes nothing
    expect(stages(seq('boot', 'START'), phase('install'))).toEqual(['booting', 'booting']);
  });

  it('ignores other events', () => {
    expect(stages({ type: 'machine.ServiceStateEvent' }, maintenance('NOOP'))).toEqual([
      'unknown',
      'unknown',
    ]);
  });
});
