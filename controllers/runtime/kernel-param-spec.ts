// runtime.KernelParamSpecController applies KernelParamSpecs and KernelParamDefaultSpecs to the kernel,
// the config's value over the default's, and publishes a KernelParamStatus per key. The kernel's value
// before the first write is kept and written back once no spec wants the key. A key the kernel lacks
// fails the pass, unless its spec says ignoreErrors: then its status says unsupported. Only a node runs it.
import {
  KernelParamDefaultSpec,
  KernelParamSpec,
  type KernelParamSpecSpec,
  KernelParamStatus,
} from '../../resources/runtime/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { isNotFound } from '../../src/cosi/state/errors.js';
import {
  KERNEL_PARAM_ROOTS,
  type KernelParamRoots,
  readKernelParam,
  writeKernelParam,
} from '../../src/sys/kernel-param.js';
import { KernelParamError, type KernelParamFailure } from './internal/kernel-param-error.js';

export const KERNEL_PARAM_SPEC_CONTROLLER = 'runtime.KernelParamSpecController';

export interface KernelParamSpecOptions {
  /** where `proc.sys.*` and `sys.*` keys live; tests give stand-ins under a temporary directory */
  readonly roots?: KernelParamRoots;
}

export function kernelParamSpecController(opts: KernelParamSpecOptions = {}) {
  const roots = opts.roots ?? KERNEL_PARAM_ROOTS;
  // both outlive a restart after a failed pass, as upstream's controller fields do: the kernel's own
  // values (read before our first write), and what we wrote
  const original = new Map<string, string>();
  const written = new Map<string, string>();

  /** set writes one key, first keeping the kernel's value; a key the kernel lacks throws ENOENT */
  const set = (id: string, value: string): void => {
    if (!original.has(id)) {
      try {
        original.set(id, readKernelParam(id, roots));
      } catch (e) {
        if (!isENOENT(e)) throw e;
      }
    }
    writeKernelParam(id, value, roots);
    written.set(id, value);
  };

  /** restore writes the kept value back and forgets the key (nothing kept: the kernel never had it) */
  const restore = (id: string): void => {
    const was = original.get(id);
    if (was !== undefined) writeKernelParam(id, was, roots);
    original.delete(id);
    written.delete(id);
  };

  return defineController({
    name: KERNEL_PARAM_SPEC_CONTROLLER,
    inputs: [input(KernelParamDefaultSpec, { kind: 'strong' }), input(KernelParamSpec, { kind: 'strong' })],
    outputs: [output(KernelParamStatus, 'exclusive')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        const configs = await rt.list(KernelParamSpec, { signal });
        const defaults = await rt.list(KernelParamDefaultSpec, { signal });
        const failures: KernelParamFailure[] = [];
        const applied = new Set<string>();
        for (const p of paramsInOrder(configs, defaults)) {
          // a default yields to the config's value, unless that one could not be set
          if (p.layer === 'default' && applied.has(p.id)) continue;
          try {
            set(p.id, p.spec.value);
          } catch (cause) {
            if (isENOENT(cause) && p.spec.ignoreErrors)
              await rt.modify(
                KernelParamStatus,
                p.id,
                (s) => {
                  s.unsupported = true;
                },
                { signal },
              );
            else failures.push({ id: p.id, cause });
            continue;
          }
          applied.add(p.id);
          await rt.modify(
            KernelParamStatus,
            p.id,
            (s) => {
              s.current = p.spec.value;
              s.default = (original.get(p.id) ?? '').trim();
            },
            { signal },
          );
        }
        for (const id of staleKeys(written.keys(), applied)) {
          try {
            restore(id);
          } catch (cause) {
            failures.push({ id, cause });
            continue;
          }
          await rt.destroy(KernelParamStatus.pointer(id), { signal }).catch((e: unknown) => {
            if (!isNotFound(e)) throw e;
          });
        }
        if (failures.length) throw new KernelParamError(failures);
        rt.resetBackoff();
      }
    },
  });
}

export interface OrderedParam {
  readonly id: string;
  readonly layer: 'config' | 'default';
  readonly spec: KernelParamSpecSpec;
}

/** paramsInOrder lists the config's specs before the defaults, so that the config's value wins. */
export const paramsInOrder = (
  configs: readonly { metadata: { id: string }; spec: KernelParamSpecSpec }[],
  defaults: readonly { metadata: { id: string }; spec: KernelParamSpecSpec }[],
): OrderedParam[] => [
  ...configs.map((r) => ({ id: r.metadata.id, layer: 'config' as const, spec: r.spec })),
  ...defaults.map((r) => ({ id: r.metadata.id, layer: 'default' as const, spec: r.spec })),
];

/** staleKeys are the keys written earlier that no spec set in this pass: they get their old value back. */
export const staleKeys = (written: Iterable<string>, applied: ReadonlySet<string>): string[] =>
  [...written].filter((id) => !applied.has(id));

const isENOENT = (e: unknown): boolean => (e as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
