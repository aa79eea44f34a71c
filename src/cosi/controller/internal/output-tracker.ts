// Output tracking: remember which outputs one reconcile pass wrote, then destroy this controller's others.
import type { Kind, Pointer } from '../../resource/kind.js';
import { ControllerError } from '../errors.js';
import type { StateAdapter } from './adapter.js';
import { identity } from './reduced.js';

export interface OutputTracker {
  start(): void;
  /** touched records a written output; ignored while tracking is off */
  touched(ptr: Pointer): void;
  /** cleanup destroys owned, untouched resources of the kinds and stops tracking. */
  cleanup(kinds: readonly Kind[], signal: AbortSignal): Promise<void>;
  /** drop stops tracking without cleaning up (the controller exited). */
  drop(): void;
}

export function outputTracker(owner: string, adapter: () => StateAdapter): OutputTracker {
  let touched: Set<string> | undefined;
  return {
    start() {
      if (touched) throw new ControllerError('output-tracking', 'output tracking already enabled');
      touched = new Set();
    },
    touched(ptr) {
      touched?.add(identity(ptr));
    },
    async cleanup(kinds, signal) {
      const keep = touched;
      if (!keep) throw new ControllerError('output-tracking', 'output tracking not enabled');
      for (const kind of kinds) {
        let list: Awaited<ReturnType<StateAdapter['listKind']>>;
        try {
          list = await adapter().listKind(kind, { signal });
        } catch (cause) {
          throw new Error('error listing output resources', { cause });
        }
        for (const r of list) {
          if (r.metadata.owner !== owner || keep.has(identity(r.metadata))) continue;
          try {
            await adapter().destroy(r.metadata, { signal });
          } catch (cause) {
            throw new Error(`error destroying resource ${r.metadata.toString()}`, { cause });
          }
        }
      }
      touched = undefined;
    },
    drop() {
      touched = undefined;
    },
  };
}
