// Typed errors of the config room: one issue names its document, field path and line.
import { MAX_LISTED_ERRORS } from './decoder/limits.js';

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
  | 'patch'
  /** bytes that are not a YAML text: too many, not UTF-8, binary */
  | 'not-text'
  /** a stream past one of the decoder's bounds (decoder/limits.ts) */
  | 'limit';

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

/** formatErrors lists the errors as upstream's multierror does, the first MAX_LISTED_ERRORS of them. */
export function formatErrors(errors: readonly Error[]): string {
  if (errors.length === 1) return `1 error occurred:\n\t* ${errors[0]!.message}`;
  const listed = errors.slice(0, MAX_LISTED_ERRORS).map((e) => `\t* ${e.message}`);
  if (errors.length > MAX_LISTED_ERRORS) listed.push(`\t* … and ${errors.length - MAX_LISTED_ERRORS} more`);
  return `${errors.length} errors occurred:\n${listed.join('\n')}`;
}

const is = (e: unknown, ...c: ConfigErrorCode[]) =>
  e instanceof ConfigErrors
    ? e.errors.some((x) => c.includes(x.code))
    : e instanceof ConfigError && c.includes(e.code);
export const isDecodeError = (e: unknown) =>
  is(
    e,
    'yaml',
    'unknown-field',
    'type',
    'missing-kind',
    'missing-api-version',
    'unknown-kind',
    'not-text',
    'limit',
  );
export const isConflictError = (e: unknown) => is(e, 'duplicate', 'conflict');
export const isPatchError = (e: unknown) => is(e, 'patch');
