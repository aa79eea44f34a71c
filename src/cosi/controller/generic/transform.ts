// Transform controller: maps each input resource to one output resource (A → B), with the full
// teardown protocol: untouched outputs are torn down and destroyed, input finalizers released after.
import type { ID } from '../../resource/kind.js';
import type { Metadata } from '../../resource/metadata.js';
import type { TypedResource } from '../../resource/typed.js';
import { isConflict } from '../../state/errors.js';
import {
  type Controller,
  type ControllerRuntime,
  defineController,
  type Input,
  input,
  type Output,
  type OutputKind,
  output,
  type RunContext,
} from '../controller.js';
import { ControllerError, isSkipReconcile } from '../errors.js';
import type { ListOptions, ReaderWriter } from '../reader-writer.js';
import { aggregate, wrap } from './aggregate.js';
import type { TransformFunctions } from './transform-functions.js';

export interface TransformSettings<I, O> extends TransformFunctions<I, O> {
  /** hooks around each pass (rarely needed) */
  readonly preTransformHook?: (rt: ReaderWriter, ctx: RunContext) => Promise<void> | void;
  readonly postTransformHook?: (rt: ReaderWriter, ctx: RunContext) => Promise<void> | void;
  /** put this controller's finalizer on inputs (the input becomes strong) */
  readonly inputFinalizers?: boolean;
  /** treat tearing-down inputs as running (outputs live until the input is destroyed); excludes inputFinalizers */
  readonly ignoreTearingDownInputs?: boolean;
  readonly inputListOptions?: Pick<ListOptions, 'labelQueries' | 'idQuery'>;
  readonly extraInputs?: readonly Input[];
  readonly extraOutputs?: readonly Output[];
  /** default exclusive */
  readonly outputKind?: OutputKind;
  /** extraEvents wakes the controller on every item (e.g. a netlink subscription) */
  readonly extraEvents?: (signal: AbortSignal) => AsyncIterable<unknown>;
  /** onShutdown runs when the run loop exits, for any reason */
  readonly onShutdown?: (rt: ReaderWriter, ctx: RunContext) => Promise<void> | void;
}

const invalid = (msg: string) => new ControllerError('invalid-declaration', msg);

/** transformController validates the settings at once: conflicting settings throw here, not at run. */
export function transformController<I, O>(s: TransformSettings<I, O>): Controller {
  const extraOutputs = s.extraOutputs ?? [];
  const hasExtra = extraOutputs.length > 0;
  if (!s.map && !s.mapOptional) throw invalid('map is required');
  if (s.map && s.mapOptional) throw invalid('map and mapOptional are mutually exclusive');
  if (!s.transform && !hasExtra) throw invalid('transform is required');
  if (!s.transformExtraOutput && hasExtra) throw invalid('transformExtraOutput is required');
  if (s.transform && s.transformExtraOutput)
    throw invalid('transform and transformExtraOutput are mutually exclusive');
  if (s.inputFinalizers && !s.finalizerRemoval && !hasExtra)
    throw invalid('finalizerRemoval is required when input finalizers are enabled');
  if (s.inputFinalizers && !s.finalizerRemovalExtraOutput && hasExtra)
    throw invalid('finalizerRemovalExtraOutput is required when input finalizers are enabled');
  if (s.finalizerRemoval && s.finalizerRemovalExtraOutput)
    throw invalid('finalizerRemoval and finalizerRemovalExtraOutput are mutually exclusive');
  if (s.inputFinalizers && s.ignoreTearingDownInputs)
    throw invalid('ignoreTearingDownInputs is mutually exclusive with inputFinalizers');

  const name = s.name;
  const inNs = s.inputNamespace ?? s.input.defaultNamespace;
  const outNs = s.outputNamespace ?? s.output.defaultNamespace;
  const mapID = s.mapOptional ?? s.map!;
  const transform = (s.transformExtraOutput ?? s.transform)!;
  const finalizerRemoval = s.finalizerRemovalExtraOutput ?? s.finalizerRemoval;

  const inputs = [input(s.input, { namespace: inNs, kind: s.inputFinalizers ? 'strong' : 'weak' })];
  // the output as its own destroy-ready input, unless it is the input kind itself
  if (s.input.type !== s.output.type || inNs !== outNs)
    inputs.push(input(s.output, { namespace: outNs, kind: 'destroy-ready' }));

  interface Pass {
    readonly errors: unknown[];
    /** output ids that have a live input: keep them */
    readonly touched: Set<ID>;
    /** output id → input whose finalizer may go once that output is destroyed */
    readonly releasable: Map<ID, Metadata>;
  }

  const tearingDownInput = async (
    rt: ControllerRuntime,
    ctx: RunContext,
    pass: Pass,
    inp: TypedResource<I>,
    outID: ID,
  ) => {
    if (!s.inputFinalizers || !inp.metadata.finalizers.has(name)) return;
    try {
      await finalizerRemoval!(rt, inp, ctx);
    } catch (e) {
      if (!isSkipReconcile(e)) pass.errors.push(wrap('error reconciling finalizer removal', e));
      pass.touched.add(outID); // keep the output until the removal succeeds
      return;
    }
    pass.releasable.set(outID, inp.metadata);
  };

  const processInputs = async (rt: ControllerRuntime, ctx: RunContext, pass: Pass) => {
    let items: TypedResource<I>[];
    try {
      items = await rt.list(s.input, { namespace: inNs, ...s.inputListOptions });
    } catch (e) {
      throw wrap('error listing input resources', e);
    }
    for (const inp of items) {
      const outID = mapID(inp);
      if (outID === undefined) continue;
      if (!s.ignoreTearingDownInputs && inp.metadata.phase === 'tearingDown') {
        await tearingDownInput(rt, ctx, pass, inp, outID);
        continue;
      }
      pass.touched.add(outID);
      if (s.inputFinalizers && !inp.metadata.finalizers.has(name)) {
        try {
          await rt.addFinalizer(inp.metadata, name);
        } catch (e) {
          pass.errors.push(e);
          continue;
        }
      }
      try {
        await rt.modify(s.output, outID, (_spec, _md, out) => transform(rt, inp, out, ctx), {
          namespace: outNs,
        });
      } catch (e) {
        // a conflict is an output tearing down (or owned elsewhere): the next pass sorts it out
        if (isConflict(e) || isSkipReconcile(e)) continue;
        pass.errors.push(
          wrap(`error running transform on ${s.input.type}(${JSON.stringify(inp.metadata.id)})`, e),
        );
      }
    }
    rt.recordMetric('reconcile_input_items', items.length);
  };

  const cleanupOutputs = async (rt: ControllerRuntime, pass: Pass) => {
    let outputs: TypedResource<O>[];
    try {
      outputs = await rt.list(s.output, { namespace: outNs });
    } catch (e) {
      throw wrap('error listing output resources', e);
    }
    for (const out of outputs) {
      const id = out.metadata.id;
      if (out.metadata.owner !== name) {
        pass.releasable.delete(id);
        continue;
      }
      // a tearing-down output with a live input belongs to a previous generation of that input:
      // destroy it first, the next pass recreates it
      if (out.metadata.phase !== 'tearingDown' && pass.touched.has(id)) {
        pass.releasable.delete(id);
        continue;
      }
      try {
        const ready = await rt.teardown(out.metadata);
        if (!ready) {
          pass.releasable.delete(id); // other finalizers left: a destroy-ready event wakes us again
          continue;
        }
        await rt.destroy(out.metadata);
      } catch (e) {
        pass.releasable.delete(id);
        pass.errors.push(e);
      }
    }
    for (const md of pass.releasable.values()) {
      try {
        await rt.removeFinalizer(md, name);
      } catch (e) {
        pass.errors.push(e);
      }
    }
  };

  return defineController({
    name,
    inputs: [...inputs, ...(s.extraInputs ?? [])],
    outputs: [output(s.output, s.outputKind ?? 'exclusive'), ...extraOutputs],
    async run(rt, ctx) {
      const pump = s.extraEvents ? pumpEvents(s.extraEvents, rt, ctx.signal) : undefined;
      try {
        for await (const _ of rt.events(ctx.signal)) {
          rt.recordMetric('reconcile_cycles', 1);
          const start = performance.now();
          const pass: Pass = { errors: [], touched: new Set(), releasable: new Map() };
          await s.preTransformHook?.(rt, ctx);
          await processInputs(rt, ctx, pass);
          await cleanupOutputs(rt, pass);
          await s.postTransformHook?.(rt, ctx);
          rt.recordMetric('reconcile_busy', (performance.now() - start) / 1000);
          const failed = aggregate(pass.errors, `transform controller ${JSON.stringify(name)}`);
          if (failed) throw failed;
          rt.resetBackoff();
        }
      } finally {
        await pump?.stop();
        await s.onShutdown?.(rt, ctx);
      }
    },
  });
}

/** pumpEvents turns every item of an external stream into a wake-up, until stopped. */
function pumpEvents(
  source: (signal: AbortSignal) => AsyncIterable<unknown>,
  rt: ControllerRuntime,
  parent: AbortSignal,
): { stop(): Promise<void> } {
  const ac = new AbortController();
  const abort = () => ac.abort(parent.reason);
  parent.addEventListener('abort', abort, { once: true });
  const done = (async () => {
    try {
      for await (const _ of source(ac.signal)) rt.queueReconcile();
    } catch {
      // the stream's own failure only loses extra wake-ups; regular events keep flowing
    }
  })();
  return {
    async stop() {
      parent.removeEventListener('abort', abort);
      ac.abort();
      await done;
    },
  };
}
