import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FsError } from '../../../src/sys/fs/errors.js';
import { lineStartIn, tailFile } from '../../../src/sys/fs/tail-file.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-tail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(path: string, tailLines: number): Promise<string> {
  let out = '';
  for await (const c of tailFile(path, { tailLines, follow: false, signal: new AbortController().signal }))
    out += c.toString();
  return out;
}

describe('tailFile', () => {
  const file = join(dir, 'log');
  writeFileSync(file, 'a\nb\nc\n');

  it.each([
    [-1, 'a\nb\nc\n'],
    [0, ''],
    [1, 'c\n'],
    [2, 'b\nc\n'],
    [9, 'a\nb\nc\n'],
  ])('tail %i', async (n, want) => expect(await readAll(file, n)).toBe(want));

  it('counts an unterminated last line as a line', async () => {
    const f = join(dir, 'partial');
    writeFileSync(f, 'a\nb\nc');
    expect(await readAll(f, 1)).toBe('c');
    expect(await readAll(f, 2)).toBe('b\nc');
  });

  it('finds lines across blocks of a large file', async () => {
    const f = join(dir, 'big');
    const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i}`);
    writeFileSync(f, `${lines.join('\n')}\n`);
    expect(await readAll(f, 3)).toBe('line 19997\nline 19998\nline 19999\n');
  });

  it('follows what is appended until the signal aborts', async () => {
    const f = join(dir, 'grow');
    writeFileSync(f, 'old\nlast\n');
    const ctl = new AbortController();
    let seen = '';
    // each append follows what was read, so the order is the file's, not a timer's
    for await (const c of tailFile(f, { tailLines: 1, follow: true, signal: ctl.signal })) {
      seen += c.toString();
      if (seen === 'last\n') appendFileSync(f, 'new 1\n');
      else if (seen === 'last\nnew 1\n') setTimeout(() => appendFileSync(f, 'new 2\n'), 20);
      else ctl.abort();
    }
    expect(seen).toBe('last\nnew 1\nnew 2\n');
  });

  it('fails with an FsError for a missing file', async () => {
    await expect(readAll(join(dir, 'absent'), -1)).rejects.toBeInstanceOf(FsError);
  });

  it('lineStartIn reports newlines it saw when the start is further back', () => {
    expect(lineStartIn(Buffer.from('x\ny\n'), 4, 5)).toEqual({ newlines: 2 });
    expect(lineStartIn(Buffer.from('x\ny\n'), 3, 1)).toEqual({ offset: 2, newlines: 1 });
  });
});
