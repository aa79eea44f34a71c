// machined/sequencer: sequences of phases of concurrent tasks, one sequence at a time, with upstream's
// takeover rules (LOCKED otherwise), Sequence/Phase/Task events and timed log lines.
export * from './duration.js';
export * from './errors.js';
export * from './phase.js';
export * from './sequence.js';
export * from './sequencer.js';
export * from './sequences.js';
