// MachineService.Version: what Keel reports about itself, in the Go-shaped fields talosctl expects.
import { readFileSync } from 'node:fs';
import { type CallContext, type Handler, unaryHandler } from './handlers.js';

/** VersionInfo as machine.proto has it. */
export interface VersionInfo {
  readonly tag: string;
  readonly sha: string;
  readonly built: string;
  readonly go_version: string;
  readonly os: string;
  readonly arch: string;
}

export interface PlatformInfo {
  readonly name: string;
  readonly mode: string;
}

/** BuildInfo is stamped in at build time (tag and sha from `git describe`), when there is a build. */
export interface BuildInfo {
  readonly tag?: string;
  readonly sha?: string;
  readonly built?: string;
}

// A bundler defines KEEL_BUILD_INFO; running from source it is absent and the fallbacks apply.
declare const KEEL_BUILD_INFO: BuildInfo | undefined;
const stamped = (): BuildInfo => (typeof KEEL_BUILD_INFO === 'undefined' ? {} : KEEL_BUILD_INFO);

/** packageVersion reads the version from package.json beside the sources, or undefined inside a bundle. */
function packageVersion(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

const fallbackTag = (): string => {
  const fromPackage = packageVersion();
  return fromPackage ? `v${fromPackage}` : 'v0.0.0-dev';
};

/** GOARCH spellings of Node's architectures, since clients compare them with Go's. */
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

/** keelVersion is this build's VersionInfo; `go_version` carries the runtime, Node here. */
export function keelVersion(build: BuildInfo = stamped()): VersionInfo {
  return {
    // a build carries its tag: package.json is only looked for (a failing read inside the single
    // executable, which costs PID 1 an exception on its way to the API) when running from source
    tag: build.tag ?? fallbackTag(),
    sha: build.sha ?? 'unknown',
    built: build.built ?? '',
    go_version: `node${process.versions.node}`,
    os: process.platform,
    arch: GO_ARCH[process.arch] ?? process.arch,
  };
}

/**
 * TALOS_API_LEVEL is the Talos release whose machine API (protos, resources, semantics) Keel implements.
 * talosctl compares the server's tag with its own as semver and warns of an older server, so the tag on
 * the wire is this level with Keel's own version as build metadata (`v1.13.0+keel.0.1.0`), which semver
 * ignores when comparing: a talosctl of the same level does not warn, a newer one rightly does.
 */
export const TALOS_API_LEVEL = 'v1.13.0';

/** wireTag is the tag Version answers with: the API level, then Keel's tag as semver build metadata. */
export function wireTag(keelTag: string, apiLevel = TALOS_API_LEVEL): string {
  // build metadata allows only [0-9A-Za-z-] in dot-separated identifiers
  const meta = keelTag
    .replace(/^v/, '')
    .replace(/[^0-9A-Za-z.-]+/g, '-')
    .split('.')
    .filter(Boolean)
    .join('.');
  return `${apiLevel}+keel${meta ? `.${meta}` : ''}`;
}

export interface VersionHandlerOptions {
  readonly version?: VersionInfo;
  readonly platform?: PlatformInfo;
  /** RBAC is on once the node has a config; maintenance mode has none */
  readonly rbac: boolean;
}

/** versionHandler answers with one element; the router adds the node's name when asked for several. */
export function versionHandler(opts: VersionHandlerOptions): Handler {
  const own = opts.version ?? keelVersion();
  const version = { ...own, tag: wireTag(own.tag) };
  return unaryHandler(async (_req, _ctx: CallContext) => ({
    messages: [
      {
        version,
        ...(opts.platform ? { platform: opts.platform } : {}),
        ...(opts.rbac ? { features: { rbac: true } } : {}),
      },
    ],
  }));
}
