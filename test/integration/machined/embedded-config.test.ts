// The embedded config's directory is masked once read (as upstream): in a mount namespace of its own, a
// reader then finds nothing there and cannot write there, and the file is still in the image beneath.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, requireRoot } from './pid1.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('embedded config', () => {
  it('is masked by an empty read-only tmpfs once read', () => {
    requireRoot();
    dir = mkdtempSync(join(tmpdir(), 'keel-embedded-'));
    const path = join(dir, 'usr/local/etc/talos/config.yaml');
    mkdirSync(join(dir, 'usr/local/etc/talos'), { recursive: true });
    writeFileSync(path, 'version: v1alpha1\n');
    // a private mount namespace: the mask ends with the process, and the host never sees it
    const out = execFileSync(
      'unshare',
      [
        '--mount',
        '--propagation',
        'private',
        process.execPath,
        '--import',
        'tsx',
        fixture('mask-embedded.ts'),
        path,
      ],
      { encoding: 'utf8' },
    );
    const lines = out.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('log: '))).toEqual([]);
    expect(JSON.parse(lines.at(-1)!)).toEqual({
      before: 'version: v1alpha1\n',
      read: 'ENOENT',
      write: 'EROFS',
    });
    expect(readFileSync(path, 'utf8')).toBe('version: v1alpha1\n');
  });
});
