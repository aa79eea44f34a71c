// The single executable's bundle is kept ASCII. Node decodes the 1.4 MB bundle from UTF-8 at every
// start, and V8's decoder takes an ASCII buffer in its fast path, where a single other character sends
// the whole buffer through the general one (natively 2.2 against 3.3 ms; in a VM, 11 M fewer counted
// instructions from exec to the API). esbuild escapes non-ASCII characters in strings and templates but
// leaves them in regular expression literals.
import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

/** escapeNonAscii writes every non-ASCII UTF-16 unit as \uXXXX (the same pattern in a RegExp literal) */
export function escapeNonAscii(source: string): string {
  return source.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export class NonAsciiBundleError extends Error {
  override name = 'NonAsciiBundleError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly excerpt: string,
  ) {
    super(
      `${file}:${line}:${column}: the bundle must be ASCII (Node decodes it at every start, and a ` +
        `non-ASCII character slows that down): one in ${JSON.stringify(excerpt)}; spell it as \\uXXXX in its source`,
    );
  }
}

/** assertAscii throws NonAsciiBundleError at the first non-ASCII character of `code` */
export function assertAscii(code: string, file: string): void {
  const at = code.search(/[\u0080-\uffff]/);
  if (at < 0) return;
  const before = code.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  throw new NonAsciiBundleError(file, line, column, code.slice(Math.max(0, at - 30), at + 10));
}

/**
 * asciiPlugin escapes the non-ASCII characters of dependency files whose only non-ASCII text is in
 * regular expression literals and strings (pluralize: /pok[eé]mon$/i), where \uXXXX means the same;
 * in a raw template string it would not, so files are listed, never matched wholesale.
 */
export function asciiPlugin(files: readonly RegExp[]): Plugin {
  return {
    name: 'ascii-sources',
    setup(b) {
      for (const filter of files)
        b.onLoad({ filter }, async (args) => ({
          contents: escapeNonAscii(await readFile(args.path, 'utf8')),
          loader: 'js',
        }));
    },
  };
}
