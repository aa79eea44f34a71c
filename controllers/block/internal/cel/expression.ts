// A boolean CEL expression compiled once, against one environment: syntax and type errors are found at
// compile time and name the expression and the column, as cel-go's issues do; evaluation then only
// reads the variables given.
import type { ParseResult } from '@marcbachmann/cel-js';
import {
  type CelDisk,
  type CelEnvironmentName,
  type CelVolume,
  celDisk,
  celVolume,
  environment,
  zeroDisk,
  zeroVolume,
} from './environment.js';

export type CelErrorCode = 'syntax' | 'type' | 'evaluation';

/** CelError is a block expression that does not parse, does not type-check or fails to evaluate. */
export class CelError extends Error {
  constructor(
    readonly code: CelErrorCode,
    readonly expression: string,
    /** the 0-based offset in the expression the error points at */
    readonly position: number,
    message: string,
    opts?: ErrorOptions,
  ) {
    super(message, opts);
    this.name = 'CelError';
  }
}

export const isCelError = (e: unknown, ...codes: CelErrorCode[]): e is CelError =>
  e instanceof CelError && (codes.length === 0 || codes.includes(e.code));

/** CelVariables is what an expression may read; an absent one is its zero value. */
export interface CelVariables {
  readonly volume?: CelVolume;
  readonly disk?: CelDisk;
  readonly system_disk?: boolean;
}

/** BoolExpression is a compiled boolean expression. */
export interface BoolExpression {
  readonly source: string;
  readonly env: CelEnvironmentName;
  evaluate(vars: CelVariables): boolean;
}

interface LibError {
  readonly name?: string;
  readonly summary?: string;
  readonly message?: string;
  readonly range?: { readonly start: number };
}

function position(e: LibError): number {
  return e.range?.start ?? 0;
}

function describe(env: CelEnvironmentName, source: string, what: string, e: LibError): string {
  const at = position(e);
  return `${env} ${JSON.stringify(source)}: ${what} at column ${at + 1}: ${e.summary ?? e.message ?? String(e)}`;
}

/** compileBool parses and type-checks `source` once; it must be a bool. */
export function compileBool(env: CelEnvironmentName, source: string): BoolExpression {
  let parsed: ParseResult;
  try {
    parsed = environment(env).parse(source);
  } catch (cause) {
    const e = cause as LibError;
    throw new CelError('syntax', source, position(e), describe(env, source, 'syntax error', e), { cause });
  }
  const checked = parsed.check();
  if (!checked.valid) {
    const e = checked.error as LibError;
    throw new CelError('type', source, position(e), describe(env, source, 'type error', e), {
      cause: checked.error,
    });
  }
  if (checked.type !== 'bool')
    throw new CelError(
      'type',
      source,
      0,
      `${env} ${JSON.stringify(source)}: type error at column 1: gives ${checked.type}, not bool`,
    );
  return {
    source,
    env,
    evaluate(vars) {
      const ctx: Record<string, unknown> = {};
      // an absent variable reads as its zero value, as an unset proto message does
      ctx.disk = celDisk(vars.disk ?? zeroDisk());
      if (env === 'volume locator') ctx.volume = celVolume(vars.volume ?? zeroVolume());
      else ctx.system_disk = vars.system_disk ?? false;
      let out: unknown;
      try {
        out = parsed(ctx);
      } catch (cause) {
        const e = cause as LibError;
        throw new CelError('evaluation', source, position(e), describe(env, source, 'evaluation error', e), {
          cause,
        });
      }
      if (typeof out !== 'boolean')
        throw new CelError(
          'evaluation',
          source,
          0,
          `${env} ${JSON.stringify(source)}: gave ${String(out)}, not a bool`,
        );
      return out;
    },
  };
}

const cache = new Map<string, BoolExpression>();

/** compiled memoizes compileBool: a controller run re-reads the same few expressions on every event. */
export function compiled(env: CelEnvironmentName, source: string): BoolExpression {
  const key = `${env}\0${source}`;
  let e = cache.get(key);
  if (!e) {
    e = compileBool(env, source);
    if (cache.size > 256) cache.clear();
    cache.set(key, e);
  }
  return e;
}
