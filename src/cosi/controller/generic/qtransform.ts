// QTransform controller: the queue-based A → B transform, one input per reconcile. Output events
// map back to their input through `unmap`; extra mapped inputs bring their own mappers.
import type { ID, Namespace, Pointer } from '../../resource/kind.js';
import type { LabelTerm } from '../../resource/label-query.js';
import type { ResourceType, TypedResource } from '../../resource/typed.js';
import { isConflict, isNotFound } from '../../state/errors.js';
import { type Input, input, type Output, type OutputKind, output, type RunContext } from '../controller.js';
import { asRequeue, ControllerError, type RequeueError } from '../errors.js';
import {
  defineQController,
  type QController,
  type QRuntime,
  type ReducedResourceMetadata,
} from '../qcontroller.js';
import { type KindLike, kindOf } from '../reader-writer.js';
import { wrap } from './aggregate.js';
import type { TransformFunctions } from './transform-functions.js';

/** Mapper turns a change of an extra mapped input into pointers to primary inputs. */
export type Mapper = (
  rt: QRuntime,
  md: ReducedResourceMetadata,
  ctx: RunContext,
) => Promise<readonly Pointer[]> | readonly Pointer[];

export interface MappedInput {
  readonly input: Input;
  readonly mapper: Mapper;
}

/** mappedInput declares an extra input and its mapper; destroyReady maps only destroy-ready changes. */
export function mappedInput(
  of: KindLike,
  mapper: Mapper,
  opts: { namespace?: Namespace; destroyReady?: boolean } = {},
): MappedInput {
  const kind = opts.destroyReady ? 'q-mapped-destroy-ready' : 'q-mapped';
  return { input: input(of, { ...(opts.namespace ? { namespace: opts.namespace } : {}), kind }), mapper };
}

/** mapperSameID points at the primary input with the changed resource's id. */
export const mapperSameID =
  (primary: KindLike): Mapper =>
  (_rt, md) => [{ ...kindOf(primary), id: md.id }];

/** mapExtractLabelValue points at the primary input named by a label, when every term matches. */
export const mapExtractLabelValue =
  (primary: KindLike, label: string, ...terms: LabelTerm[]): Mapper =>
  (_rt, md) => {
    if (!terms.every((t) => md.labels.matches(t))) return [];
    const id = md.labels.get(label);
    return id === undefined ? [] : [{ ...kindOf(primary), id }];
  };

/** mapperNone maps to nothing (the input is read during reconcile, its changes need no wake-up). */
export const mapperNone = (): Mapper => () => [];

/** mapperFromTyped reads the changed resource and maps it; an absent resource maps to nothing. */
export const mapperFromTyped =
  <S>(
    type: ResourceType<S>,
    fn: (
      rt: QRuntime,
      r: TypedResource<S>,
      ctx: RunContext,
    ) => Promise<readonly Pointer[]> | readonly Pointer[],
  ): Mapper =>
  async (rt, md, ctx) => {
    const r = await rt.getOrNull(type, md.id, { namespace: md.namespace });
    return r ? fn(rt, r, ctx) : [];
  };

const DESTROY_OUTPUT = Symbol.for('cosi.controller.destroy-output');

/** DestroyOutputError, thrown by a transform, tears down and destroys the output instead of writing it. */
export class DestroyOutputError extends Error {
  readonly [DESTROY_OUTPUT] = true;

  constructor(message = 'output is not needed') {
    super(message);
    this.name = 'DestroyOutputError';
  }
}

export const destroyOutput = (message?: string): DestroyOutputError => new DestroyOutputError(message);

const inChain = (e: unknown, pred: (x: unknown) => boolean): boolean => {
  for (let cur = e, depth = 0; cur !== undefined && cur !== null && depth < 8; depth++) {
    if (pred(cur)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
};

export const isDestroyOutput = (e: unknown): boolean =>
  inChain(e, (x) => typeof x === 'object' && (x as Record<symbol, unknown>)[DESTROY_OUTPUT] === true);

export interface QTransformSettings<I, O> extends TransformFunctions<I, O> {
  /** unmap names the input of an output (only its metadata is set) */
  readonly unmap: (output: TypedResource<O>) => ID;
  readonly extraMappedInputs?: readonly MappedInput[];
  readonly extraOutputs?: readonly Output[];
  /** default exclusive */
  readonly outputKind?: OutputKind;
  readonly concurrency?: number;
  /** treat a tearing-down input as running until only these finalizers (and ours) remain */
  readonly ignoreTeardownUntil?: readonly string[];
  /** treat a tearing-down input as running while any of these finalizers remains */
  readonly ignoreTeardownWhile?: readonly string[];
}

const invalid = (msg: string) => new ControllerError('invalid-declaration', msg);

export function qtransformController<I, O>(s: QTransformSettings<I, O>): QController {
  if (!s.map && !s.mapOptional) throw invalid('map is required');
  if (s.map && s.mapOptional) throw invalid('map and mapOptional are mutually exclusive');
  if (!s.unmap) throw invalid('unmap is required');
  if (!s.transform && !s.transformExtraOutput) throw invalid('transform is required');
  if (s.transform && s.transformExtraOutput)
    throw invalid('transform and transformExtraOutput are mutually exclusive');
  if (s.finalizerRemoval && s.finalizerRemovalExtraOutput)
    throw invalid('finalizerRemoval and finalizerRemovalExtraOutput are mutually exclusive');

  const name = s.name;
  const inNs = s.inputNamespace ?? s.input.defaultNamespace;
  const outNs = s.outputNamespace ?? s.output.defaultNamespace;
  const mapID = s.mapOptional ?? s.map!;
  const transform = (s.transformExtraOutput ?? s.transform)!;
  const finalizerRemoval = s.finalizerRemovalExtraOutput ?? s.finalizerRemoval;
  const until = s.ignoreTeardownUntil ? new Set(s.ignoreTeardownUntil) : undefined;
  const whileAny = s.ignoreTeardownWhile ? new Set(s.ignoreTeardownWhile) : undefined;

  const mappers = new Map<string, Mapper>();
  for (const m of s.extraMappedInputs ?? []) {
    if (m.input.kind !== 'q-mapped' && m.input.kind !== 'q-mapped-destroy-ready')
      throw invalid(`unexpected input kind for QController ${JSON.stringify(m.input.kind)}`);
    const key = `${m.input.namespace}\0${m.input.type}`;
    if (mappers.has(key)) throw invalid(`duplicate mapper for ${m.input.type}(${m.input.namespace})`);
    mappers.set(key, m.mapper);
  }

  /** ignoreTeardown: keep reconciling a tearing-down input as running while other finalizers hold it. */
  const ignoreTeardown = (inp: TypedResource<I>): boolean => {
    const others = inp.metadata.finalizers.list().filter((f) => f !== name);
    return (
      (!!until && others.some((f) => !until.has(f))) || (!!whileAny && others.some((f) => whileAny.has(f)))
    );
  };

  const destroyNow = async (rt: QRuntime, out: Pointer) => {
    let ready: boolean;
    try {
      ready = await rt.teardown(out);
    } catch (e) {
      if (isNotFound(e)) return;
      throw wrap('error checking if output is teardown ready', e);
    }
    if (!ready) return;
    try {
      await rt.destroy(out);
    } catch (e) {
      if (!isNotFound(e)) throw wrap('error destroying output', e);
    }
  };

  const reconcileRunning = async (rt: QRuntime, ctx: RunContext, inp: TypedResource<I>, outID: ID) => {
    if (inp.metadata.phase === 'running' && !inp.metadata.finalizers.has(name)) {
      try {
        await rt.addFinalizer(inp.metadata, name);
      } catch (e) {
        throw wrap('error adding input finalizer', e);
      }
    }
    const out = s.output.pointer(outID, outNs);
    // an output of a previous generation is still tearing down: destroy it once free, then recreate
    const existing = await rt.getOrNull(s.output, outID, { namespace: outNs });
    if (existing?.metadata.phase === 'tearingDown') {
      if (!existing.metadata.finalizers.empty()) return;
      await rt.destroy(out);
    }
    let requeue: RequeueError | undefined;
    try {
      await rt.modify(
        s.output,
        outID,
        async (_spec, _md, o) => {
          try {
            await transform(rt, inp, o, ctx);
          } catch (e) {
            // a plain requeue still writes the output; a requeue with a cause fails the write
            const rq = asRequeue(e);
            if (!rq) throw e;
            requeue = rq;
            if (rq.cause !== undefined) throw rq.cause;
          }
        },
        { namespace: outNs },
      );
    } catch (e) {
      if (isConflict(e, { type: s.output.type, namespace: outNs })) return; // e.g. the output is tearing down
      if (isDestroyOutput(e)) return destroyNow(rt, out);
      const rq = requeue as RequeueError | undefined;
      if (rq && inChain(e, (x) => x === rq.cause)) throw rq;
      throw e; // skips included: the runtime counts them
    }
    if (requeue) throw requeue;
  };

  const reconcileTearingDown = async (rt: QRuntime, ctx: RunContext, inp: TypedResource<I>, outID: ID) => {
    await finalizerRemoval?.(rt, inp, ctx);
    const out = s.output.pointer(outID, outNs);
    let ready: boolean;
    try {
      ready = await rt.teardown(out);
    } catch (e) {
      if (isNotFound(e)) return rt.removeFinalizer(inp.metadata, name);
      throw wrap('error tearing down output resource', e);
    }
    if (!ready) return; // the output's destroy-ready event brings us back
    try {
      await rt.destroy(out);
    } catch (e) {
      throw wrap('error destroying output', e);
    }
    await rt.removeFinalizer(inp.metadata, name);
  };

  return defineQController({
    name,
    inputs: [
      input(s.input, { namespace: inNs, kind: 'q-primary' }),
      input(s.output, { namespace: outNs, kind: 'q-mapped-destroy-ready' }),
      ...(s.extraMappedInputs ?? []).map((m) => m.input),
    ],
    outputs: [output(s.output, s.outputKind ?? 'exclusive'), ...(s.extraOutputs ?? [])],
    ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}),
    async reconcile(rt, ptr, ctx) {
      const inp = await rt.getOrNull(s.input, ptr.id, { namespace: ptr.namespace });
      if (!inp) return;
      const outID = mapID(inp);
      if (outID === undefined) return;
      if (inp.metadata.phase === 'running' || ignoreTeardown(inp))
        return reconcileRunning(rt, ctx, inp, outID);
      return reconcileTearingDown(rt, ctx, inp, outID);
    },
    mapInput(rt, md, ctx) {
      if (md.namespace === outNs && md.type === s.output.type) {
        // the output became destroy-ready: reconcile its input (unmap needs only metadata)
        const out = s.output.new(md.namespace, md.id);
        out.metadata.labels = md.labels.copy();
        return [s.input.pointer(s.unmap(out), inNs)];
      }
      const mapper = mappers.get(`${md.namespace}\0${md.type}`);
      if (!mapper) throw new Error(`no mapper for ${md.type}(${md.namespace})`);
      return mapper(rt, md, ctx);
    },
  });
}
