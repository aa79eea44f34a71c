// The Controller contract: a name, declared inputs and outputs (data), and a level-triggered run loop.
import type { ID, Namespace, Type } from '../resource/kind.js';
import { validateDeclaration } from './internal/declaration.js';
import type { Logger } from './logger.js';
import { type KindLike, kindOf, type ReaderWriter } from './reader-writer.js';

/**
 * InputKind says when an input wakes the controller and what it may do with it:
 * - weak: any change wakes; read only
 * - strong: any change wakes; read, plus add/remove finalizers
 * - destroy-ready: wakes only when a resource is tearingDown with no finalizers left
 * - q-primary (QController): the changed resource itself is queued for reconcile; finalizers allowed
 * - q-mapped (QController): a map job is queued and its results reconciled; finalizers allowed
 * - q-mapped-destroy-ready (QController): like q-mapped, only for destroy-ready resources; read only
 */
export type InputKind =
  | 'weak'
  | 'strong'
  | 'destroy-ready'
  | 'q-primary'
  | 'q-mapped'
  | 'q-mapped-destroy-ready';

export const CONTROLLER_INPUT_KINDS: readonly InputKind[] = ['weak', 'strong', 'destroy-ready'];
export const QCONTROLLER_INPUT_KINDS: readonly InputKind[] = [
  'q-primary',
  'q-mapped',
  'q-mapped-destroy-ready',
];

/** OutputKind: exclusive types have one writer; shared types many, each owning what it created. */
export type OutputKind = 'exclusive' | 'shared';

/** Input: resources of (namespace, type), or just one id of them. */
export interface Input {
  readonly namespace: Namespace;
  readonly type: Type;
  readonly id?: ID;
  readonly kind: InputKind;
}

/** Output: a type the controller may write, in any namespace. */
export interface Output {
  readonly type: Type;
  readonly kind: OutputKind;
}

export interface InputOptions {
  /** default: the type's default namespace */
  namespace?: Namespace;
  /** narrow the input to one resource */
  id?: ID;
  /** default: weak */
  kind?: InputKind;
}

/** input declares an input from a resource type: `input(MachineConfig, { id: 'v1alpha1', kind: 'weak' })`. */
export function input(of: KindLike, opts: InputOptions = {}): Input {
  const k = kindOf(of, opts.namespace);
  const base = { namespace: k.namespace, type: k.type, kind: opts.kind ?? 'weak' } as const;
  return opts.id === undefined ? base : { ...base, id: opts.id };
}

/** output declares an output type: `output(MachineType, 'exclusive')`. */
export const output = (of: Type | { readonly type: Type }, kind: OutputKind = 'exclusive'): Output => ({
  type: typeof of === 'string' ? of : of.type,
  kind,
});

/** RunContext: the signal that stops the controller, and a logger already tagged with its name. */
export interface RunContext {
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/** Metrics a generic controller may record against its own name. */
export type ControllerMetricName = 'reconcile_cycles' | 'reconcile_input_items' | 'reconcile_busy';

/** ControllerRuntime is the runtime as a classic controller sees it. */
export interface ControllerRuntime extends ReaderWriter {
  /**
   * events yields once per coalesced wake-up: any number of input changes while the controller is
   * busy make exactly one pending wake-up, and one is pending at start. The loop ends, without
   * throwing, when the signal (default: the run signal) aborts.
   */
  events(signal?: AbortSignal): AsyncIterable<void>;
  /** queueReconcile wakes the controller itself (timers, external watches). */
  queueReconcile(): void;
  /** resetBackoff: call after each successful pass, so the next crash restarts quickly. */
  resetBackoff(): void;
  /** updateInputs replaces the inputs at runtime; new watches are established before it resolves. */
  updateInputs(inputs: readonly Input[]): Promise<void>;
  /** startTrackingOutputs records every output written until cleanupOutputs. */
  startTrackingOutputs(): void;
  /** cleanupOutputs destroys this controller's untouched outputs of the given kinds, then resets tracking and backoff. */
  cleanupOutputs(...kinds: KindLike[]): Promise<void>;
  /** recordMetric adds to one of the generic-controller metrics under this controller's name. */
  recordMetric(name: ControllerMetricName, value: number): void;
}

export interface ControllerDeclaration {
  readonly name: string;
  readonly inputs?: readonly Input[];
  readonly outputs?: readonly Output[];
  /** run loops over rt.events(); returning means finished for good, throwing means restart with backoff. */
  run(rt: ControllerRuntime, ctx: RunContext): Promise<void> | void;
}

export interface Controller {
  readonly flavor: 'controller';
  readonly name: string;
  readonly inputs: readonly Input[];
  readonly outputs: readonly Output[];
  run(rt: ControllerRuntime, ctx: RunContext): Promise<void> | void;
}

/**
 * defineController checks the declaration once (kinds, duplicate inputs, output modes), so a bad
 * declaration fails at startup rather than at the first event.
 */
export function defineController(decl: ControllerDeclaration): Controller {
  const inputs = Object.freeze([...(decl.inputs ?? [])]);
  const outputs = Object.freeze([...(decl.outputs ?? [])]);
  validateDeclaration(decl.name, inputs, outputs, CONTROLLER_INPUT_KINDS);
  const run = decl.run.bind(decl);
  return Object.freeze({ flavor: 'controller', name: decl.name, inputs, outputs, run });
}
