// Typed errors of the config room: one issue names its document, field path and line.

export type ConfigErrorCode =
  | 'yaml'
  | 'unknown-field'
  | 'type'
  | 'missing-kind'
  | 'missing-api-version'
  | 'unknown-kind'
  | 'duplicate'
  | 'conflict'
  | 'invalid'
  | 'warning'
  | 'patch';

/** ConfigError is one problem in one document, rendered as `<doc> <path> (line N): <message>`. */
export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    readonly document: string,
    readonly path: string,
    readonly line: number | undefined,
    readonly detail: string,
  ) {
    super(render(document, path, line, detail));
    this.name = 'ConfigError';
  }
}

function render(document: string, path: string, line: number | undefined, detail: string): string {
  const where = [document, path].filter((s) => s !== '').join(' ');
  const at = line === undefined ? '' : ` (line ${line})`;
  return `${where}${at}: ${detail}`;
}

/** ConfigErrors carries every problem found at once, printed like upstream's multierror. */
export class ConfigErrors extends Error {
  constructor(readonly errors: readonly ConfigError[]) {
    super(formatErrors(errors));
    this.name = 'ConfigErrors';
  }
}

export function formatErrors(errors: readonly Error[]): string {
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]!.message}`;
  return `${errors.length} errors occurred:\n${errors.map((e) => `\t* ${e.message}`).join('\n')}`;
}

const is = (e: unknown, ...c: ConfigErrorCode[]) =>
  e instanceof ConfigErrors
    ? e.errors.some((x) => c.includes(x.code))
    : e instanceof ConfigError && c.includes(e.code);
export const isDecodeError = (e: unknown) =>
  is(e, 'yaml', 'unknown-field', 'type', 'missing-kind', 'missing-api-version', 'unknown-kind');
export const isConflictError = (e: unknown) => is(e, 'duplicate', 'conflict');
export const isPatchError = (e: unknown) => is(e, 'patch');
