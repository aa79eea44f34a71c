// ManifestApplyError: the objects an apply pass could not apply, each with its cause, in one message (as
// upstream's multierror lists them); the controller fails with it and the runtime retries with backoff.
export interface ApplyFailure {
  /** `group/version/kind/name` */
  readonly object: string;
  readonly error: unknown;
}

export class ManifestApplyError extends Error {
  override readonly name = 'ManifestApplyError';
  constructor(readonly failures: readonly ApplyFailure[]) {
    super(
      `${failures.length} bootstrap object(s) not applied: ${failures
        .map((f) => `${f.object}: ${(f.error as Error)?.message ?? String(f.error)}`)
        .join('; ')}`,
    );
  }
}
