// Resource lifecycle phase: running, then tearingDown once its owner starts to delete it.

export type Phase = 'running' | 'tearingDown';

export const PhaseRunning: Phase = 'running';
export const PhaseTearingDown: Phase = 'tearingDown';

export function parsePhase(s: string): Phase {
  if (s === 'running' || s === 'tearingDown') return s;
  throw new TypeError(`unknown phase ${JSON.stringify(s)}`);
}
