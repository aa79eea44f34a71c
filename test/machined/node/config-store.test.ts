import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_FILE, persistConfig, readPersistedConfig } from '../../../src/machined/node/index.js';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'keel-store-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('config store', () => {
  it('has no config in a fresh state directory', () => {
    expect(readPersistedConfig(tempDir())).toBeUndefined();
  });

  it('replaces the config whole and leaves no temporary file behind', () => {
    const dir = join(tempDir(), 'state');
    persistConfig(dir, 'first: 1\n');
    persistConfig(dir, 'second: 2\n');
    expect(readPersistedConfig(dir)).toBe('second: 2\n');
    expect(readdirSync(dir)).toEqual([CONFIG_FILE]);
    expect(readFileSync(join(dir, CONFIG_FILE), 'utf8')).toBe('second: 2\n');
  });

  it('names the file when it cannot write', () => {
    const dir = tempDir();
    persistConfig(dir, 'x: 1\n');
    // the config file itself used as a directory: every write below it fails
    expect(() => persistConfig(join(dir, CONFIG_FILE), 'y: 2\n')).toThrow(/cannot write .*config\.yaml/);
  });
});
