// The settings transform and qtransform share: which input maps to which output, and the functions
// that fill an output and release an input.
import type { ID, Namespace } from '../../resource/kind.js';
import type { ResourceType, TypedResource } from '../../resource/typed.js';
import type { RunContext } from '../controller.js';
import type { Reader, ReaderWriter } from '../reader-writer.js';

export interface TransformFunctions<I, O> {
  readonly name: string;
  readonly input: ResourceType<I>;
  readonly output: ResourceType<O>;
  /** default: the input type's default namespace */
  readonly inputNamespace?: Namespace;
  /** default: the output type's default namespace */
  readonly outputNamespace?: Namespace;
  /** map names the output of an input (exactly one of map / mapOptional) */
  readonly map?: (input: TypedResource<I>) => ID;
  /** mapOptional may skip an input by returning undefined */
  readonly mapOptional?: (input: TypedResource<I>) => ID | undefined;
  /** transform fills the output from the input (exactly one of transform / transformExtraOutput) */
  readonly transform?: (
    rt: Reader,
    input: TypedResource<I>,
    output: TypedResource<O>,
    ctx: RunContext,
  ) => Promise<void> | void;
  /** transformExtraOutput is transform with write access, required with extraOutputs */
  readonly transformExtraOutput?: (
    rt: ReaderWriter,
    input: TypedResource<I>,
    output: TypedResource<O>,
    ctx: RunContext,
  ) => Promise<void> | void;
  /** finalizerRemoval must succeed before a torn-down input loses this controller's finalizer */
  readonly finalizerRemoval?: (rt: Reader, input: TypedResource<I>, ctx: RunContext) => Promise<void> | void;
  readonly finalizerRemovalExtraOutput?: (
    rt: ReaderWriter,
    input: TypedResource<I>,
    ctx: RunContext,
  ) => Promise<void> | void;
}
