// fileTarGz: one in-memory file as a tar.gz that our reader and GNU tar both unpack, header fields intact.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar } from '../../../src/cli/archive/index.js';
import { fileTarGz } from '../../../src/sys/fs/file-tar-gz.js';

const file = { name: 'kubeconfig', data: Buffer.from('apiVersion: v1\n'), mode: 0o600, mtime: 1_700_000_000 };

describe('fileTarGz', () => {
  it('is gzip holding one regular file, whole blocks and the end-of-archive marker', () => {
    const archive = fileTarGz(file);
    expect(archive.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const tar = gunzipSync(archive);
    // header + one data block + two zero blocks
    expect(tar.length).toBe(4 * 512);
    expect(tar.subarray(2 * 512).every((b) => b === 0)).toBe(true);
    expect(readTar(tar)).toEqual([
      { path: 'kubeconfig', type: 'file', mode: 0o600, body: file.data, link: '' },
    ]);
  });

  it('keeps data that fills its blocks exactly', () => {
    const data = Buffer.alloc(1024, 'x');
    const entries = readTar(gunzipSync(fileTarGz({ ...file, data })));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.body).toEqual(data);
  });

  it('unpacks with GNU tar, with its mode and modification time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-file-tar-gz-'));
    try {
      writeFileSync(join(dir, 'a.tar.gz'), fileTarGz(file));
      execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
      expect(readFileSync(join(dir, 'kubeconfig'), 'utf8')).toBe('apiVersion: v1\n');
      const st = statSync(join(dir, 'kubeconfig'));
      expect(st.mode & 0o777).toBe(0o600);
      expect(Math.floor(st.mtimeMs / 1000)).toBe(file.mtime);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
