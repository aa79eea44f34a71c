// `keelctl kubeconfig [local-path]`: download the admin kubeconfig from a control plane node and merge it
// into ~/.kube/config (or the path given), or write it as a file, or to stdout with `-`, as talosctl does.
// A clash is renamed unless --force; there is no interactive prompt.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, normalize } from 'node:path';
import { parse, stringify } from 'yaml';
import { fileFromTarGz } from '../archive/index.js';
import { type ParsedArgs, UsageError } from '../args.js';
import { type ClientError, globalFlags, joinErrors, streamEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import { type Output, OutputError, writeRaw } from '../io.js';
import { type Kubeconfig, mergeKubeconfig } from '../kubeconfig-merge.js';

const STDOUT = '-';

export const kubeconfigCommand: Command = {
  name: 'kubeconfig',
  args: '[local-path]',
  summary: 'Download the admin kubeconfig from the node',
  flags: {
    force: {
      kind: 'bool',
      short: 'f',
      usage: 'Force overwrite of kubeconfig if already present, force overwrite on kubeconfig merge',
    },
    'force-context-name': { kind: 'string', usage: 'Force context name for kubeconfig merge' },
    merge: { kind: 'bool', short: 'm', default: true, usage: 'Merge with existing kubeconfig' },
  },
  global: globalFlags,
  run: runKubeconfig,
};

/** defaultMergePath is $KUBECONFIG when it names one file, else ~/.kube/config (go-kubeconfig's SinglePath). */
function defaultMergePath(): string {
  const paths = (process.env.KUBECONFIG ?? '').split(delimiter).filter((p) => p !== '');
  if (paths.length > 1) throw new UsageError('multiple kubeconfig files defined');
  return paths[0] ?? join(homedir(), '.kube', 'config');
}

/** target resolves where the kubeconfig goes and whether to merge, as talosctl decides both. */
export function kubeconfigTarget(
  arg: string | undefined,
  opts: { merge: boolean; force: boolean },
): { path: string; merge: boolean } {
  let path = normalize(arg ?? (opts.merge ? defaultMergePath() : process.cwd()));
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (!existsSync(path)) {
    if (path !== STDOUT) mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  } else if (statSync(path).isDirectory()) path = join(path, 'kubeconfig');
  const exists = existsSync(path);
  if (exists && !(opts.force || opts.merge))
    throw new OutputError(
      `kubeconfig file already exists, use --force to overwrite: ${JSON.stringify(path)}`,
    );
  // merging into nothing is writing
  return { path, merge: opts.merge && exists };
}

async function runKubeconfig(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [arg, ...extra] = args.positional;
  if (extra.length) throw new UsageError('kubeconfig takes at most one local path');
  const force = args.flags.get('force') === true;
  const target = kubeconfigTarget(arg, { merge: args.flags.get('merge') === true, force });
  const errors: ClientError[] = [];
  const chunks: Buffer[] = [];
  await withSession(args, {}, async (s) => {
    if (s.nodes.length > 1) throw new UsageError('kubeconfig works on one node at a time: give a single -n');
    for await (const { message } of streamEach<{ bytes?: Uint8Array }>(
      s,
      'machine.MachineService',
      'Kubeconfig',
      {},
      errors,
      signal,
    ))
      if (message.bytes?.length) chunks.push(Buffer.from(message.bytes));
  });
  const err = joinErrors(errors);
  if (err) throw err;
  const data = fileFromTarGz(Buffer.concat(chunks), 'kubeconfig');
  if (target.merge) {
    const contextName = args.flags.get('force-context-name');
    const { merged, renamed } = mergeKubeconfig(
      (parse(readFileSync(target.path, 'utf8')) ?? {}) as Kubeconfig,
      parse(data.toString('utf8')) as Kubeconfig,
      { force, ...(typeof contextName === 'string' && contextName ? { contextName } : {}) },
    );
    for (const line of renamed) io.out(line);
    writeFileSync(target.path, stringify(merged, { indentSeq: false, lineWidth: 0 }), { mode: 0o600 });
  } else if (target.path === STDOUT) writeRaw(io, data);
  else writeFileSync(target.path, data, { mode: 0o600 });
  return 0;
}
