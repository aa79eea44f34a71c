// The client's own build for `keelctl version`: stamped into a bundle at build time, else read from the
// git checkout the sources run from, else package.json's version (keelVersion's fallback).
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type BuildInfo, keelVersion, type VersionInfo } from '../api/version.js';

// A bundler defines KEEL_BUILD_INFO (as for the node); run through tsx it is absent.
declare const KEEL_BUILD_INFO: BuildInfo | undefined;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * gitBuildInfo describes the checkout at `root`: `git describe --tags --always --dirty`, the full commit
 * and its time. Undefined without git, or when `root` is not itself a checkout's top (sources unpacked
 * inside someone else's repository must not report that repository).
 */
export function gitBuildInfo(root: string = ROOT): BuildInfo | undefined {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(root)) return undefined;
    return {
      tag: git('describe', '--tags', '--always', '--dirty'),
      sha: git('rev-parse', 'HEAD'),
      built: git('log', '-1', '--format=%cI'),
    };
  } catch {
    return undefined;
  }
}

/** clientVersion is called by `version` alone, so no other command pays for running git. */
export function clientVersion(): VersionInfo {
  if (typeof KEEL_BUILD_INFO !== 'undefined') return keelVersion(KEEL_BUILD_INFO);
  return keelVersion(gitBuildInfo() ?? {});
}
