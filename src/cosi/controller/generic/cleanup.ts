// Cleanup controller: holds a finalizer on every running input and, when the input is torn down,
// runs a handler (wait for or remove dependent resources) before letting the input go.
import type { Namespace } from '../../resource/kind.js';
import type { ResourceType, TypedResource } from '../../resource/typed.js';
import {
  type Controller,
  type ControllerRuntime,
  defineController,
  type Input,
  input,
  type Output,
  output,
  type RunContext,
} from '../controller.js';
import { ControllerError, isSkipReconcile, skipReconcile } from '../errors.js';
import type { ListOptions } from '../reader-writer.js';
import { aggregate, wrap } from './aggregate.js';

/** CleanupHandler decides when a torn-down input may lose the finalizer, and what it needs to watch or write. */
export interface CleanupHandler<I> {
  /** throw a SkipReconcileError to wait for the next event; any other error fails the pass */
  finalizerRemoval(rt: ControllerRuntime, input: TypedResource<I>, ctx: RunContext): Promise<void>;
  readonly inputs: readonly Input[];
  readonly outputs: readonly Output[];
}

export interface CleanupSettings<I> {
  readonly name: string;
  readonly input: ResourceType<I>;
  readonly inputNamespace?: Namespace;
  readonly handler: CleanupHandler<I>;
}

export function cleanupController<I>(s: CleanupSettings<I>): Controller {
  if (!s.name) throw new ControllerError('invalid-declaration', 'name is required');
  if (!s.handler) throw new ControllerError('invalid-declaration', 'handler is required');
  const name = s.name;
  const ns = s.inputNamespace ?? s.input.defaultNamespace;
  const what = (r: TypedResource<I>) =>
    `resource ${JSON.stringify(s.input.type)} with id ${JSON.stringify(r.metadata.id)}`;

  const processInput = async (rt: ControllerRuntime, ctx: RunContext, r: TypedResource<I>) => {
    const held = r.metadata.finalizers.has(name);
    if (r.metadata.phase === 'running') {
      if (held) return;
      try {
        await rt.addFinalizer(r.metadata, name);
      } catch (e) {
        throw wrap(`error adding finalizer on ${what(r)}`, e);
      }
      ctx.logger.info('put finalizer on resource', { id: r.metadata.id, resource: s.input.type });
      return;
    }
    if (!held) return;
    try {
      await s.handler.finalizerRemoval(rt, r, ctx);
    } catch (e) {
      if (isSkipReconcile(e)) return;
      throw wrap(`error handling finalizer removal from ${what(r)}`, e);
    }
    try {
      await rt.removeFinalizer(r.metadata, name);
    } catch (e) {
      throw wrap(`error removing finalizer from ${what(r)}`, e);
    }
    ctx.logger.info('removed finalizer', { id: r.metadata.id, resource: s.input.type });
  };

  return defineController({
    name,
    inputs: [input(s.input, { namespace: ns, kind: 'strong' }), ...s.handler.inputs],
    outputs: s.handler.outputs,
    async run(rt, ctx) {
      for await (const _ of rt.events(ctx.signal)) {
        let items: TypedResource<I>[];
        try {
          items = await rt.list(s.input, { namespace: ns });
        } catch (e) {
          throw wrap(`cleanup controller ${JSON.stringify(name)} failed listing inputs`, e);
        }
        const errors: unknown[] = [];
        for (const r of items) {
          try {
            await processInput(rt, ctx, r);
          } catch (e) {
            errors.push(e);
          }
        }
        const failed = aggregate(errors, `cleanup controller ${JSON.stringify(name)}`);
        if (failed) throw wrap(`cleanup controller ${JSON.stringify(name)} failed`, failed);
        rt.resetBackoff();
      }
    },
  });
}

type Selector<I> = (input: TypedResource<I>) => Pick<ListOptions, 'labelQueries' | 'idQuery'>;

/** hasNoOutputs waits until no resource of `out` matches the selector (out becomes a weak input). */
export function hasNoOutputs<O, I>(
  out: ResourceType<O>,
  select: Selector<I>,
  opts: { namespace?: Namespace } = {},
): CleanupHandler<I> {
  const ns = opts.namespace ?? out.defaultNamespace;
  return {
    inputs: [input(out, { namespace: ns, kind: 'weak' })],
    outputs: [],
    async finalizerRemoval(rt, inp, ctx) {
      let left: number;
      try {
        left = (await rt.list(out, { namespace: ns, ...select(inp) })).length;
      } catch (e) {
        throw wrap(`error listing resources on input ${JSON.stringify(inp.metadata.id)}`, e);
      }
      if (left > 0) {
        ctx.logger.info('waiting for resources to be destroyed', { resource: out.type, count: left });
        throw skipReconcile('waiting for resources to be destroyed');
      }
    },
  };
}

/**
 * removeOutputs tears down and destroys the matching `out` resources that are user-owned or owned
 * by one of `extraOwners` (out becomes a destroy-ready input and a shared output).
 */
export function removeOutputs<O, I>(
  out: ResourceType<O>,
  select: Selector<I>,
  opts: { namespace?: Namespace; extraOwners?: readonly string[] } = {},
): CleanupHandler<I> {
  const ns = opts.namespace ?? out.defaultNamespace;
  const owners = new Set(opts.extraOwners ?? []);
  return {
    inputs: [input(out, { namespace: ns, kind: 'destroy-ready' })],
    outputs: [output(out, 'shared')],
    async finalizerRemoval(rt, inp, ctx) {
      let list: TypedResource<O>[];
      try {
        list = await rt.list(out, { namespace: ns, ...select(inp) });
      } catch (e) {
        throw wrap(`error listing resources on input ${JSON.stringify(inp.metadata.id)}`, e);
      }
      const errors: unknown[] = [];
      let tearingDown = 0;
      for (const r of list) {
        const owner = r.metadata.owner;
        if (owner !== '' && !owners.has(owner)) continue; // someone else's: not ours to remove
        try {
          if (!(await rt.teardown(r.metadata, { owner }))) {
            tearingDown++;
            continue;
          }
        } catch (e) {
          errors.push(
            wrap(
              `error tearing down ${JSON.stringify(out.type)} resource ${JSON.stringify(r.metadata.id)}`,
              e,
            ),
          );
          continue;
        }
        try {
          await rt.destroy(r.metadata, { owner });
          ctx.logger.info('removed dependant output', { resource: out.type, id: r.metadata.id });
        } catch (e) {
          errors.push(
            wrap(`error destroying ${JSON.stringify(out.type)} resource ${JSON.stringify(r.metadata.id)}`, e),
          );
        }
      }
      const failed = aggregate(errors, 'error removing dependant outputs');
      if (failed) throw wrap('error removing dependant outputs', failed);
      if (tearingDown > 0) {
        ctx.logger.info('waiting for resources to be destroyed', { resource: out.type, count: tearingDown });
        throw skipReconcile('waiting for resources to be destroyed');
      }
    },
  };
}

/** combine runs handlers in order; their inputs and outputs are merged (same kind twice is one). */
export function combine<I>(...handlers: CleanupHandler<I>[]): CleanupHandler<I> {
  if (handlers.length === 0) throw new ControllerError('invalid-declaration', 'no handlers provided');
  const inputs: Input[] = [];
  for (const h of handlers)
    for (const i of h.inputs) {
      const same = inputs.find((x) => x.namespace === i.namespace && x.type === i.type);
      if (!same) inputs.push(i);
      else if (same.kind !== i.kind)
        throw new ControllerError(
          'invalid-declaration',
          `input ${JSON.stringify(i.type)} has different kinds: ${JSON.stringify(same.kind)} and ${JSON.stringify(i.kind)}`,
        );
    }
  const outputs: Output[] = [];
  for (const h of handlers)
    for (const o of h.outputs) if (!outputs.some((x) => x.type === o.type)) outputs.push(o);
  return {
    inputs,
    outputs,
    async finalizerRemoval(rt, inp, ctx) {
      for (const h of handlers) await h.finalizerRemoval(rt, inp, ctx);
    },
  };
}
