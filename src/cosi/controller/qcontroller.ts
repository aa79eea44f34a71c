// The QController contract: reconcile one queued resource at a time, with per-item retries and backoff.
import type { Pointer } from '../resource/kind.js';
import type { Labels } from '../resource/labels.js';
import type { Phase } from '../resource/phase.js';
import { type Input, type Output, QCONTROLLER_INPUT_KINDS, type RunContext } from './controller.js';
import { ControllerError } from './errors.js';
import { validateDeclaration } from './internal/declaration.js';
import type { ReaderWriter } from './reader-writer.js';

/** QRuntime is the runtime as a QController sees it: reads and writes, no wake-up channel. */
export interface QRuntime extends ReaderWriter {}

/** ReducedResourceMetadata is what a map job knows about the resource that changed. */
export interface ReducedResourceMetadata extends Pointer {
  readonly phase: Phase;
  readonly labels: Labels;
  readonly finalizersEmpty: boolean;
}

export interface QControllerDeclaration {
  readonly name: string;
  readonly inputs: readonly Input[];
  readonly outputs?: readonly Output[];
  /** parallel workers; the same pointer is never reconciled concurrently (default 1) */
  readonly concurrency?: number;
  /**
   * reconcile handles one primary input. Throw to retry with per-item backoff; throw a
   * RequeueError to choose the delay; a SkipReconcileError counts as success.
   */
  reconcile(rt: QRuntime, ptr: Pointer, ctx: RunContext): Promise<void> | void;
  /** mapInput turns a change of a mapped input into primary pointers to reconcile (required with q-mapped inputs). */
  mapInput?(
    rt: QRuntime,
    md: ReducedResourceMetadata,
    ctx: RunContext,
  ): Promise<readonly Pointer[]> | readonly Pointer[];
  /** runHook runs beside the workers, restarted with backoff when it throws. */
  runHook?(rt: QRuntime, ctx: RunContext): Promise<void> | void;
  /** shutdownHook runs once when the controller stops. */
  shutdownHook?(): void;
}

export interface QController extends Omit<QControllerDeclaration, 'outputs' | 'concurrency'> {
  readonly flavor: 'qcontroller';
  readonly outputs: readonly Output[];
  readonly concurrency: number;
}

/** defineQController checks the declaration at definition time, as defineController does. */
export function defineQController(decl: QControllerDeclaration): QController {
  const inputs = Object.freeze([...decl.inputs]);
  const outputs = Object.freeze([...(decl.outputs ?? [])]);
  validateDeclaration(decl.name, inputs, outputs, QCONTROLLER_INPUT_KINDS);
  const concurrency = decl.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new ControllerError('invalid-declaration', `invalid concurrency: ${concurrency}`);
  const mapped = inputs.find((i) => i.kind !== 'q-primary');
  if (mapped && !decl.mapInput)
    throw new ControllerError(
      'invalid-declaration',
      `controller ${JSON.stringify(decl.name)} has mapped input ${mapped.type}(${mapped.namespace}) but no mapInput`,
    );
  return Object.freeze({
    flavor: 'qcontroller',
    name: decl.name,
    inputs,
    outputs,
    concurrency,
    reconcile: decl.reconcile.bind(decl),
    ...(decl.mapInput ? { mapInput: decl.mapInput.bind(decl) } : {}),
    ...(decl.runHook ? { runHook: decl.runHook.bind(decl) } : {}),
    ...(decl.shutdownHook ? { shutdownHook: decl.shutdownHook.bind(decl) } : {}),
  });
}
