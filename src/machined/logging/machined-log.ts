// machinedLogger: machined's own log, as lines into its ring (and optionally a console or kmsg writer).
import type { LogRing } from './ring.js';

export type LogFields = Readonly<Record<string, unknown>>;

/** MachinedLogger has the four methods the COSI runtime's Logger asks for, plus raw lines. */
export interface MachinedLogger {
  line(text: string): void;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export interface MachinedLoggerOptions {
  /** also receives every line (e.g. the console or /dev/kmsg), prefixed; its failures are ignored */
  mirror?: (line: string) => void;
  /** prefix of mirrored lines; default `[keel]` */
  prefix?: string;
  now?: () => Date;
}

export function machinedLogger(ring: LogRing, opts: MachinedLoggerOptions = {}): MachinedLogger {
  const now = opts.now ?? (() => new Date());
  const prefix = opts.prefix ?? '[keel]';
  const line = (text: string): void => {
    ring.write(`${now().toISOString()} ${text}\n`);
    try {
      opts.mirror?.(`${prefix} ${text}`);
    } catch {
      // a broken console must not break logging, least of all in PID 1
    }
  };
  const at =
    (level: string) =>
    (msg: string, fields?: LogFields): void =>
      line(`${level} ${msg}${fields && Object.keys(fields).length > 0 ? ` ${render(fields)}` : ''}`);
  return { line, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const render = (fields: LogFields): string =>
  JSON.stringify(fields, (_, v: unknown) => (v instanceof Error ? v.message : v));
