// Sequence names and the takeover rules: which running sequence a newly requested one may cancel.

/** SEQUENCES lists upstream's sequence names, as they appear in SequenceEvent.sequence. */
export const SEQUENCES = [
  'noop',
  'boot',
  'initialize',
  'install',
  'shutdown',
  'upgrade',
  'stageUpgrade',
  'maintenanceUpgrade',
  'reset',
  'reboot',
  'emergencyVolumeCleanup',
] as const;

export type SequenceName = (typeof SEQUENCES)[number];

/** running sequence → the sequences allowed to cancel it; every other pair is LOCKED. */
const TAKEOVER: Readonly<Partial<Record<SequenceName, readonly SequenceName[]>>> = {
  initialize: ['maintenanceUpgrade', 'reboot', 'emergencyVolumeCleanup'],
  boot: ['reboot', 'reset', 'upgrade', 'emergencyVolumeCleanup'],
  reboot: ['reboot'],
  reset: ['reboot'],
};

/** canTakeOver: may `requested` cancel `running`? Nothing running (or noop) never blocks. */
export function canTakeOver(requested: SequenceName, running: SequenceName | undefined): boolean {
  if (running === undefined || running === 'noop') return true;
  return TAKEOVER[running]?.includes(requested) ?? false;
}

export const isSequenceName = (s: string): s is SequenceName => (SEQUENCES as readonly string[]).includes(s);
