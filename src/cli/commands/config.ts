// `keelctl config …`: edit and inspect the client config — contexts, merge, endpoints, nodes, info.
import { X509Certificate } from 'node:crypto';
import type { Talosconfig } from '../../config/generate/talosconfig.js';
import { decodeTalosconfig } from '../../config/generate/talosconfig.js';
import { tabwrite } from '../../cosi/resource/output/index.js';
import { type ParsedArgs, str, UsageError } from '../args.js';
import {
  ClientError,
  configFlags,
  currentContext,
  readTalosconfig,
  readTalosconfigOrEmpty,
  talosconfigPath,
  writeTalosconfig,
} from '../client/index.js';
import type { Command } from '../command.js';
import { readInput } from '../io.js';
import { humanizeTime } from '../output/index.js';

/** The words of each `config` subcommand: contexts, context, merge, endpoint, node, info. */
const configCommand = (
  c: Omit<Command, 'name' | 'flags' | 'global'> & { readonly word: string },
): Command => ({
  name: `config ${c.word}`,
  ...(c.aliases ? { aliases: c.aliases } : {}),
  ...(c.args ? { args: c.args } : {}),
  summary: c.summary,
  flags: {},
  global: configFlags,
  run: c.run,
});

const pathOf = (args: ParsedArgs) => talosconfigPath(str(args, 'talosconfig'));

export const configCommands: readonly Command[] = [
  configCommand({
    word: 'contexts',
    summary: 'List defined contexts',
    run: (args, io) => {
      noArguments(args, 'config contexts');
      io.out(contextsTable(readTalosconfig(pathOf(args))));
      return 0;
    },
  }),
  configCommand({
    word: 'context',
    args: '<context>',
    summary: 'Set the current context',
    run: (args) => {
      const words = args.positional;
      if (words.length !== 1) throw new UsageError('config context takes exactly one context name');
      const path = pathOf(args);
      const cfg = readTalosconfig(path);
      currentContext(cfg, words[0]); // must exist
      writeTalosconfig(path, { ...cfg, context: words[0]! });
      return 0;
    },
  }),
  configCommand({
    word: 'merge',
    args: '<from>',
    summary: 'Merge additional contexts from another client configuration file',
    run: (args, io) => {
      const words = args.positional;
      if (words.length !== 1) throw new UsageError('config merge takes exactly one file');
      const path = pathOf(args);
      const incoming = decodeTalosconfig(readInput(words[0]!, 'talosconfig'));
      const { merged, renamed } = mergeTalosconfig(readTalosconfigOrEmpty(path), incoming);
      for (const [from, to] of renamed)
        io.out(`renamed talosconfig context ${JSON.stringify(from)} -> ${JSON.stringify(to)}`);
      writeTalosconfig(path, merged);
      return 0;
    },
  }),
  configCommand({
    word: 'endpoint',
    aliases: ['endpoints'],
    args: '<endpoint>...',
    summary: 'Set the endpoints for the current context',
    run: (args) => setTargets(args, 'endpoints'),
  }),
  configCommand({
    word: 'node',
    aliases: ['nodes'],
    args: '<node>...',
    summary: 'Set the nodes for the current context',
    run: (args) => setTargets(args, 'nodes'),
  }),
  configCommand({
    word: 'info',
    summary: 'Show information about the current context',
    run: (args, io) => {
      noArguments(args, 'config info');
      io.out(configInfo(readTalosconfig(pathOf(args)), str(args, 'context'), new Date()));
      return 0;
    },
  }),
];

function noArguments(args: ParsedArgs, what: string): void {
  if (args.positional.length) throw new UsageError(`${what} takes no arguments`);
}

/** setTargets replaces the current context's endpoints or nodes; a context needs at least one endpoint. */
function setTargets(args: ParsedArgs, field: 'endpoints' | 'nodes'): number {
  const path = pathOf(args);
  const words = args.positional;
  const cfg = readTalosconfig(path);
  const { name, context } = currentContext(cfg, str(args, 'context'));
  if (field === 'endpoints' && words.length === 0)
    throw new UsageError('config endpoint needs at least one endpoint');
  const updated = { ...context, [field]: [...words] };
  writeTalosconfig(path, { ...cfg, contexts: { ...cfg.contexts, [name]: updated } });
  return 0;
}

/** contextsTable is talosctl's `config contexts`: sorted names, `*` on the current one. */
export function contextsTable(cfg: Talosconfig): string {
  const rows = ['CURRENT\tNAME\tENDPOINTS\tNODES\n'];
  for (const name of Object.keys(cfg.contexts).sort()) {
    const c = cfg.contexts[name]!;
    rows.push(
      `${name === cfg.context ? '*' : ''}\t${name}\t${c.endpoints.join(',')}\t${(c.nodes ?? []).join(',')}\n`,
    );
  }
  return tabwrite(rows.join(''), { padding: 3 }).replace(/\n$/, '');
}

/**
 * mergeTalosconfig adds the incoming contexts; a name already taken gets the first free `-N` suffix, as
 * talosctl does. The incoming current context becomes current.
 */
export function mergeTalosconfig(
  into: Talosconfig,
  incoming: Talosconfig,
): { merged: Talosconfig; renamed: [string, string][] } {
  const contexts = { ...into.contexts };
  const renamed: [string, string][] = [];
  let current = into.context;
  for (const [name, ctx] of Object.entries(incoming.contexts)) {
    let target = name;
    for (let i = 1; target in contexts; i++) target = `${name}-${i}`;
    if (target !== name) renamed.push([name, target]);
    contexts[target] = ctx;
    if (name === incoming.context) current = target;
  }
  return { merged: { context: current, contexts }, renamed };
}

/** configInfo is talosctl's `config info`: the context, its targets, the certificate's roles and expiry. */
export function configInfo(cfg: Talosconfig, name: string | undefined, now: Date): string {
  const { name: current, context } = currentContext(cfg, name);
  const nodes = context.nodes?.length ? context.nodes.join(', ') : 'not defined';
  const endpoints = context.endpoints.length ? context.endpoints.join(', ') : 'not defined';
  const lines = [
    `Current context:     ${current}`,
    `Nodes:               ${nodes}`,
    `Endpoints:           ${endpoints}`,
  ];
  if (context.crt) {
    let crt: X509Certificate;
    try {
      crt = new X509Certificate(Buffer.from(context.crt, 'base64'));
    } catch (e) {
      throw new ClientError(
        'config',
        `context ${JSON.stringify(current)}: bad client certificate: ${(e as Error).message}`,
      );
    }
    const roles = [...crt.subject.matchAll(/^O=(.*)$/gm)].map((m) => m[1]!);
    if (roles.length) lines.push(`Roles:               ${roles.join(', ')}`);
    const notAfter = new Date(crt.validTo);
    lines.push(
      `Certificate expires: ${humanizeTime(notAfter, now)} (${notAfter.toISOString().slice(0, 10)})`,
    );
  }
  return lines.join('\n');
}
