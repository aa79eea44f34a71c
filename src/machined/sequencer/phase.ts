// Phases and tasks: a sequence is phases run in order; the tasks of one phase run concurrently.
import type { SequenceName } from './sequence.js';

export interface TaskContext {
  /** aborted when the sequence is taken over, its caller gives up, or a sibling task fails */
  readonly signal: AbortSignal;
  readonly sequence: SequenceName;
  /** the request data the sequence was started with (e.g. reboot mode) */
  readonly data: unknown;
  /** log writes one line to machined's log, prefixed with the task */
  log(line: string): void;
}

export interface Task {
  /** upstream's task function name, as TaskEvent.task reports it (e.g. startAllServices) */
  readonly name: string;
  run(ctx: TaskContext): Promise<void> | void;
}

export interface Phase {
  readonly name: string;
  readonly tasks: readonly Task[];
  /** checked when the phase is reached; false skips it (upstream's deferred phase checks) */
  readonly when?: () => boolean;
}

export const task = (name: string, run: Task['run']): Task => ({ name, run });

export const phase = (name: string, ...tasks: Task[]): Phase => ({ name, tasks });

/** SequenceTable builds the phases of each sequence it knows; a missing entry is unsupported. */
export type SequenceTable = Partial<Record<SequenceName, (data: unknown) => readonly Phase[]>>;
