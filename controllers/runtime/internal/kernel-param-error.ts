// KernelParamError: kernel parameters a pass could not set or restore; the controller throws it after
// trying every one, so the runtime retries them all with backoff.

export interface KernelParamFailure {
  readonly id: string;
  readonly cause: unknown;
}

const reason = (e: unknown): string =>
  (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));

export class KernelParamError extends Error {
  readonly code = 'not-applied';
  constructor(readonly failures: readonly KernelParamFailure[]) {
    super(`kernel parameters not set: ${failures.map((f) => `${f.id} (${reason(f.cause)})`).join(', ')}`);
    this.name = 'KernelParamError';
  }
}
