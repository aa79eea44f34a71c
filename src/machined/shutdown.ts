// The orderly shutdown: hooks in registration order, each bounded, then the power-down.
import type { PowerAction } from './power-action.js';

/** ShutdownHook is one step of the orderly path (stop services, unmount volumes, …). */
export interface ShutdownHook {
  readonly name: string;
  run(opts: { signal: AbortSignal }): Promise<void> | void;
}

export interface RunHooksOptions {
  log: (line: string) => void;
  /** a hook that takes longer is abandoned (its signal aborts) and the next one runs */
  hookTimeoutMs?: number;
}

/** runShutdownHooks runs every hook in order; a failing or hanging hook is logged, never fatal. */
export async function runShutdownHooks(
  action: PowerAction,
  hooks: readonly ShutdownHook[],
  opts: RunHooksOptions,
): Promise<void> {
  const timeout = opts.hookTimeoutMs ?? 30_000;
  opts.log(`shutdown (${action}): ${hooks.length} hook(s)`);
  for (const [i, hook] of hooks.entries()) {
    const ctl = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        ctl.abort(new Error(`shutdown hook ${hook.name} timed out`));
        resolve('timeout');
      }, timeout);
    });
    try {
      const r = await Promise.race([
        Promise.resolve(hook.run({ signal: ctl.signal })).then(() => 'done'),
        expired,
      ]);
      opts.log(`shutdown hook ${hook.name} (${i + 1}/${hooks.length}): ${r}`);
    } catch (e) {
      opts.log(
        `shutdown hook ${hook.name} (${i + 1}/${hooks.length}): failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
