// Logger: the four-method sink the runtime writes to; anything with these methods plugs in.

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

const noop = (): void => {};

/** silentLogger drops everything (tests, embedding). */
export const silentLogger: Logger = { debug: noop, info: noop, warn: noop, error: noop };

/** lineLogger hands `write` one JSON line (newline-terminated) per entry at or above `level`. */
export function lineLogger(write: (line: string) => void, level: LogLevel = 'info'): Logger {
  const at =
    (l: LogLevel) =>
    (msg: string, fields?: LogFields): void => {
      if (RANK[l] < RANK[level]) return;
      write(`${JSON.stringify({ level: l, msg, ...serializable(fields) })}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** stderrLogger writes one JSON line per entry at or above `level`. */
export const stderrLogger = (level: LogLevel = 'warn'): Logger =>
  lineLogger((line) => process.stderr.write(line), level);

/** withFields prefixes every entry with fixed fields (controller name, item pointer, …). */
export function withFields(logger: Logger, fixed: LogFields): Logger {
  const at =
    (l: LogLevel) =>
    (msg: string, fields?: LogFields): void =>
      logger[l](msg, fields ? { ...fixed, ...fields } : fixed);
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

// Errors do not survive JSON.stringify; render them as their message and cause chain.
const serializable = (fields?: LogFields): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields ?? {})) out[k] = v instanceof Error ? errorText(v) : v;
  return out;
};

/** errorText renders an error with its causes: `outer: inner: root`. */
export function errorText(e: unknown): string {
  const parts: string[] = [];
  for (let cur = e, depth = 0; cur !== undefined && depth < 8; depth++) {
    const msg = cur instanceof Error ? cur.message : String(cur);
    if (!parts.some((p) => p.endsWith(msg))) parts.push(msg);
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join(': ');
}
