// When the API goes quiet after its clients (src/api/quiet.ts), machined gives back what they left: a
// full collection and the C heap's free pages. Only when the resident set has grown by LOAD_TRIM_GROWTH
// since the last trim: a quiet moment after a single `talosctl get` is not worth a full collection.
// Measured on the load bench: 100 clients left the server 20.5 MiB above its start once settled, most of
// it freed but kept by V8 and malloc.

/** how much the resident set must have grown since the last trim before a quiet API trims again */
export const LOAD_TRIM_GROWTH = 8 * 1024 * 1024;

export interface Trimmed {
  readonly residentBefore: number;
  readonly residentAfter: number;
}

export interface QuietTrimOptions {
  readonly growth?: number;
  /** the resident set in bytes; default process.memoryUsage.rss */
  readonly resident?: () => number;
  /** default trimLoadMemory, loaded when first needed (its node:v8 costs boot time under TCG) */
  readonly trim?: () => Trimmed | Promise<Trimmed>;
  /** told of each trim, or of a failed one */
  readonly log?: (line: string) => void;
}

const trimLoadMemory = async (): Promise<Trimmed> => (await import('../memory-trim.js')).trimLoadMemory();

/** quietTrim gives the listener for a quiet API; its baseline is the resident set now. */
export function quietTrim(o: QuietTrimOptions = {}): () => void {
  const growth = o.growth ?? LOAD_TRIM_GROWTH;
  const resident = o.resident ?? (() => process.memoryUsage.rss());
  const trim = o.trim ?? trimLoadMemory;
  let baseline = resident();
  let running = false;
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  return () => {
    if (running) return;
    const now = resident();
    if (now - baseline < growth) return;
    running = true;
    void (async () => {
      try {
        const r = await trim();
        baseline = r.residentAfter;
        o.log?.(
          `memory after the API's clients returned: resident ${mib(r.residentBefore)} → ${mib(r.residentAfter)} MiB`,
        );
      } catch (e) {
        // nothing is lost: the next quiet moment tries again
        o.log?.(`could not return the API clients' memory: ${(e as Error).message}`);
      } finally {
        running = false;
      }
    })();
  };
}
