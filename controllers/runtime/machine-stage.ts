// The machine's stage, read from machined's event stream as upstream's MachineStatusController reads it:
// a sequence's start names the stage, the boot sequence's clean stop means running, and the
// runningMaintenance task brackets maintenance mode. Pure: events in, stage out.
import type { MachineStage } from '../../resources/runtime/index.js';

/** The slice of a machine event the stage depends on (controllers never import machined itself). */
export type StageEventPayload =
  | {
      readonly type: 'machine.SequenceEvent';
      readonly sequence: string;
      readonly action: string;
      readonly error?: { readonly code: string; readonly message: string };
    }
  | { readonly type: 'machine.PhaseEvent'; readonly phase: string; readonly action: string }
  | { readonly type: 'machine.TaskEvent'; readonly task: string; readonly action: string }
  | { readonly type: string };

export interface StageState {
  readonly stage: MachineStage;
  /** the sequence running now, '' between sequences */
  readonly sequence: string;
}

export const INITIAL_STAGE: StageState = { stage: 'unknown', sequence: '' };

/** the task machined runs while it waits in maintenance mode for a config */
export const RUNNING_MAINTENANCE_TASK = 'runningMaintenance';

const STARTS: Readonly<Record<string, MachineStage>> = {
  boot: 'booting',
  initialize: 'booting',
  shutdown: 'shutting down',
  upgrade: 'upgrading',
  stageUpgrade: 'upgrading',
  maintenanceUpgrade: 'upgrading',
  reset: 'resetting',
  reboot: 'rebooting',
};

const UPGRADES = new Set(['install', 'upgrade', 'stageUpgrade', 'maintenanceUpgrade']);

/** nextStage folds one event into the stage. */
export function nextStage(s: StageState, p: StageEventPayload): StageState {
  if (p.type === 'machine.SequenceEvent' && 'sequence' in p) {
    switch (p.action) {
      case 'START':
        // Keel runs Initialize while maintenance mode already waits for a config (upstream runs maintenance
        // inside Initialize): its start does not end maintenance
        if (p.sequence === 'initialize' && s.stage === 'maintenance') return { ...s, sequence: p.sequence };
        return { stage: STARTS[p.sequence] ?? s.stage, sequence: p.sequence };
      case 'NOOP':
        // a fatal error ends in a reboot
        return p.error?.code === 'FATAL' ? { ...s, stage: 'rebooting' } : s;
      case 'STOP':
        return {
          stage: p.sequence === 'boot' && !p.error ? 'running' : s.stage,
          sequence: '',
        };
    }
    return s;
  }
  if (p.type === 'machine.PhaseEvent' && 'phase' in p && p.action === 'START') {
    // the install sequence runs on every boot: only its install phase means installing
    if (s.sequence === 'install' && p.phase === 'install') return { ...s, stage: 'installing' };
    if (UPGRADES.has(s.sequence) && p.phase === 'kexec') return { ...s, stage: 'rebooting' };
    return s;
  }
  if (p.type === 'machine.TaskEvent' && 'task' in p && p.task === RUNNING_MAINTENANCE_TASK) {
    if (p.action === 'START') return { ...s, stage: 'maintenance' };
    if (p.action === 'STOP') return { ...s, stage: 'booting' };
  }
  return s;
}
