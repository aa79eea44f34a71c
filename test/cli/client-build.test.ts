// keelctl version's client section (#28): a checkout's tag, commit and commit time from git, read only for
// `version`; package.json's version when git is missing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { keelVersion } from '../../src/api/version.js';
import { gitBuildInfo } from '../../src/cli/client-build.js';
import { run } from './fixtures.js';

const WHEN = '2025-03-04T05:06:07+00:00';

/** repo is a fresh checkout with one commit at WHEN, tagged v9.8.7. */
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'keelctl-git-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, GIT_COMMITTER_DATE: WHEN, GIT_AUTHOR_DATE: WHEN };
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
      cwd: dir,
      env,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'one');
  git('tag', 'v9.8.7');
  return dir;
}

const field = (stdout: string, label: string) => new RegExp(`^\\t${label}:\\s+(.*)$`, 'm').exec(stdout)?.[1];

describe('client build info', () => {
  it('reads the tag, the full commit and its time from git, marking a dirty tree', () => {
    const dir = repo();
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
    expect(gitBuildInfo(dir)).toEqual({ tag: 'v9.8.7', sha, built: WHEN });
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    expect(gitBuildInfo(dir)?.tag).toBe('v9.8.7-dirty');
  });

  it('reports nothing for a directory that is not a checkout’s top', () => {
    const dir = repo();
    const sub = join(dir, 'sub');
    execFileSync('mkdir', [sub]);
    expect(gitBuildInfo(sub)).toBeUndefined();
  });

  it('prints the checkout’s commit when run from it, and package.json’s version without git', async () => {
    const withGit = await run(['version', '--client']);
    expect(withGit.code).toBe(0);
    expect(field(withGit.stdout, 'SHA')).toMatch(/^[0-9a-f]{40}$/);
    expect(field(withGit.stdout, 'Built')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(field(withGit.stdout, 'Tag')).toMatch(/^\S+$/);
    const noGit = await run(['version', '--client'], { PATH: '/nonexistent' });
    expect(noGit.code).toBe(0);
    expect(field(noGit.stdout, 'Tag')).toBe(keelVersion({}).tag);
    expect(field(noGit.stdout, 'SHA')).toBe('unknown');
  });
});
