// `keelctl version`: the client's build, then each node's Version reply, laid out as talosctl prints them.
import type { VersionInfo } from '../../api/version.js';
import { bool, type ParsedArgs } from '../args.js';
import { globalFlags, insecureFlag, joinErrors, unaryEach, withSession } from '../client/index.js';
import { clientVersion } from '../client-build.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';

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

export const versionCommand: Command = {
  name: 'version',
  summary: 'Prints the version',
  flags: {
    ...insecureFlag,
    client: { kind: 'bool', usage: 'print client version only' },
    short: { kind: 'bool', usage: 'print the short version' },
  },
  global: globalFlags,
  run: runVersion,
};

async function runVersion(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const client = clientVersion();
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
