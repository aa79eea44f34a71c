// `keelctl version`: the client's build, then each node's Version reply, laid out as talosctl prints them.
import { keelVersion, type VersionInfo } from '../../api/version.js';
import { bool, parseArgs } from '../args.js';
import { globalFlags, insecureFlag, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Output } from '../io.js';

export const versionUsage = 'version [--client] [--short] [-i|--insecure]';

/** The client is Keel; its short version line names it as talosctl's names Talos. */
const CLIENT_NAME = 'Keel';

/** longVersion is talosctl's version template: tab-indented, labels padded to one column. */
export const longVersion = (v: Partial<VersionInfo>): string =>
  [
    `\tTag:         ${v.tag ?? ''}`,
    `\tSHA:         ${v.sha ?? ''}`,
    `\tBuilt:       ${v.built ?? ''}`,
    `\tGo version:  ${v.go_version ?? ''}`,
    `\tOS/Arch:     ${v.os ?? ''}/${v.arch ?? ''}`,
  ].join('\n');

interface VersionMessage extends Record<string, unknown> {
  version?: Partial<VersionInfo>;
  features?: { rbac?: boolean };
}

export async function runVersion(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    ...insecureFlag,
    client: { kind: 'bool' },
    short: { kind: 'bool' },
  });
  const client = keelVersion();
  io.out('Client:');
  io.out(bool(args, 'short') ? `\t${CLIENT_NAME} ${client.tag}` : longVersion(client));
  if (bool(args, 'client')) return 0;
  io.out('Server:');
  const { replies, errors } = await withSession(args, { insecure: bool(args, 'insecure') }, (s) =>
    unaryEach<VersionMessage>(s, 'machine.MachineService', 'Version', {}, signal),
  );
  for (const { node, message } of replies) {
    io.out(`\tNODE:        ${node}`);
    io.out(longVersion(message.version ?? {}));
    io.out(`\tEnabled:     ${message.features?.rbac ? 'RBAC' : ''}`);
  }
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
