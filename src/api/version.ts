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

export interface VersionHandlerOptions {
  readonly version?: VersionInfo;
  readonly platform?: PlatformInfo;
  /** RBAC is on once the node has a config; maintenance mode has none */
  readonly rbac: boolean;
}

/** versionHandler answers with one element; the router adds the node's name when asked for several. */
export function versionHandler(opts: VersionHandlerOptions): Handler {
  const version = opts.version ?? keelVersion();
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
