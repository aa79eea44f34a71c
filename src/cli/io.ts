// The CLI's side effects in one place: reading inputs, writing outputs (never silently overwriting), printing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigErrors, configText } from '../config/index.js';
import { UsageError } from './args.js';

/** OutputError is a local file keelctl will not write (one already there, say): no usage follows it. */
export class OutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputError';
  }
}

/** InputError is a local file keelctl cannot take: unreadable, binary, not UTF-8, too large. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** raw writes bytes to stdout as they are (file contents, log chunks); absent, they go through out() */
  raw?(chunk: string | Uint8Array): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  raw: (chunk) => process.stdout.write(chunk),
};

/** writeRaw prints bytes unchanged where the output can, else as text without an added newline. */
export function writeRaw(io: Output, chunk: string | Uint8Array): void {
  if (io.raw) io.raw(chunk);
  else io.out(Buffer.from(chunk).toString('utf8').replace(/\n$/, ''));
}

/** what the usual reasons a file cannot be read are called, as `ls` and `cat` say them */
const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
};

/**
 * readInput reads a YAML input (a config, a patch, a talosconfig, a secrets bundle): a file that cannot be
 * read, or is not text, is named with what is wrong with it, in one line.
 */
export function readInput(path: string, what: string): string {
  const fail = (detail: string): never => {
    throw new InputError(`reading ${what} ${path}: ${detail}`);
  };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return fail(code ? (ERRNO_WORDS[code] ?? code) : (e as Error).message);
  }
  try {
    return configText(bytes, path);
  } catch (e) {
    if (!(e instanceof ConfigErrors)) throw e;
    const [first] = e.errors;
    return fail(`${first!.detail}${first!.line === undefined ? '' : ` (line ${first!.line})`}`);
  }
}

/** refuseOverwrite throws unless the file is absent or the user forces it. */
export function refuseOverwrite(path: string, force: boolean): void {
  if (existsSync(path) && !force) throw new UsageError(`${path} already exists, use --force to overwrite`);
}

/** writeOutput writes a file with mode 0600 (it holds secrets) and refuses to replace one unless forced. */
export function writeOutput(path: string, content: string, force: boolean): void {
  refuseOverwrite(path, force);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content, { mode: 0o600 });
}
