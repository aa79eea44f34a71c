// `keelctl gen config <cluster-name> <endpoint>`: controlplane.yaml, worker.yaml and talosconfig.
import { join } from 'node:path';
import {
  applyPatches,
  type Config,
  decodeSecretsBundle,
  encode,
  encodeTalosconfig,
  generateConfigs,
  mintAdminCertificate,
  mintSecrets,
  newTalosconfig,
  validate,
} from '../../config/index.js';
import { bool, type ParsedArgs, str, strs, UsageError } from '../args.js';
import type { Command } from '../command.js';
import { type Output, readInput, refuseOverwrite, writeOutput } from '../io.js';
import { loadPatches } from '../patches.js';

const outputTypes = ['controlplane', 'worker', 'talosconfig'] as const;
type OutputType = (typeof outputTypes)[number];
const fileNames: Record<OutputType, string> = {
  controlplane: 'controlplane.yaml',
  worker: 'worker.yaml',
  talosconfig: 'talosconfig',
};

export const genConfigCommand: Command = {
  name: 'gen config',
  args: '<cluster-name> <cluster-endpoint>',
  summary: 'Generates a set of configuration files for a cluster',
  flags: {
    'with-secrets': {
      kind: 'string',
      usage: "use a secrets bundle from 'gen secrets' instead of minting one",
    },
    'config-patch': {
      kind: 'list',
      usage: 'patch generated machineconfigs (applied to all node types), inline, @file or file',
    },
    'config-patch-control-plane': {
      kind: 'list',
      usage: "patch generated machineconfigs (applied to 'init' and 'controlplane' types)",
    },
    'config-patch-worker': {
      kind: 'list',
      usage: "patch generated machineconfigs (applied to 'worker' type)",
    },
    'install-disk': { kind: 'string', default: '/dev/sda', usage: 'the disk to install to' },
    'install-image': { kind: 'string', usage: 'the image used to perform an installation' },
    'additional-sans': {
      kind: 'list',
      commas: true,
      usage: 'additional Subject-Alt-Names for the APIServer certificate',
    },
    'kubernetes-version': { kind: 'string', usage: 'desired kubernetes version to run' },
    'talos-version': {
      kind: 'string',
      usage: 'the desired Talos version to generate config for (backwards compatibility, e.g. v1.11)',
    },
    'dns-domain': {
      kind: 'string',
      default: 'cluster.local',
      usage: 'the dns domain to use for cluster',
    },
    'with-cluster-discovery': { kind: 'bool', default: true, usage: 'enable cluster discovery feature' },
    'output-types': {
      kind: 'list',
      short: 't',
      commas: true,
      usage: `types of outputs to be generated: ${outputTypes.join(', ')} (default all of them)`,
    },
    output: {
      kind: 'string',
      short: 'o',
      usage:
        'destination to output generated files: a directory, or the file when one type is chosen (default .)',
    },
    'with-docs': {
      kind: 'bool',
      usage: 'accepted for talosctl compatibility; keelctl writes configs without comments',
    },
    'with-examples': {
      kind: 'bool',
      usage: 'accepted for talosctl compatibility; keelctl writes configs without examples',
    },
    force: { kind: 'bool', usage: 'will overwrite existing files' },
  },
  global: {},
  run: runGenConfig,
};

async function runGenConfig(args: ParsedArgs, io: Output): Promise<number> {
  const types = strs(args, 'output-types').length > 0 ? strs(args, 'output-types') : [...outputTypes];
  for (const t of types)
    if (!(outputTypes as readonly string[]).includes(t))
      throw new UsageError(
        `unknown output type ${JSON.stringify(t)}: expected controlplane, worker or talosconfig`,
      );
  for (const flag of ['with-docs', 'with-examples'])
    if (bool(args, flag)) io.err(`warning: --${flag} is not supported, configs are written without comments`);
  if (args.positional.length !== 2)
    throw new UsageError(
      `expected 2 arguments <cluster-name> <cluster-endpoint>, got ${args.positional.length}`,
    );
  const [clusterName, endpoint] = args.positional as [string, string];
  const secretsFile = str(args, 'with-secrets');
  const secrets = secretsFile ? decodeSecretsBundle(readInput(secretsFile, 'secrets')) : await mintSecrets();
  const opt = (name: string) => str(args, name);
  const generated = generateConfigs({
    clusterName,
    endpoint,
    secrets,
    ...withValue('kubernetesVersion', opt('kubernetes-version')),
    ...withValue('talosVersion', opt('talos-version')),
    ...withValue('installDisk', opt('install-disk')),
    ...withValue('installImage', opt('install-image')),
    ...withValue('dnsDomain', opt('dns-domain')),
    additionalSANs: strs(args, 'additional-sans'),
    discovery: bool(args, 'with-cluster-discovery'),
  });
  const both = loadPatches(strs(args, 'config-patch'));
  const controlplane = applyPatches(generated.controlplane, [
    ...both,
    ...loadPatches(strs(args, 'config-patch-control-plane')),
  ]);
  const worker = applyPatches(generated.worker, [...both, ...loadPatches(strs(args, 'config-patch-worker'))]);
  if (!report('controlplane.yaml', controlplane, io) || !report('worker.yaml', worker, io)) return 1;
  const content: Record<OutputType, () => Promise<string>> = {
    controlplane: async () => encode(controlplane),
    worker: async () => encode(worker),
    talosconfig: async () =>
      encodeTalosconfig(
        newTalosconfig({
          clusterName,
          osCACrt: secrets.certs.os.crt,
          admin: await mintAdminCertificate(secrets),
        }),
      ),
  };
  // like talosctl, -o names the file itself when a single output type is asked for
  const out = str(args, 'output');
  const pathOf = (t: OutputType) => (types.length === 1 && out ? out : join(out ?? '.', fileNames[t]));
  const chosen = types as OutputType[];
  const files = await Promise.all(chosen.map(async (t) => [pathOf(t), await content[t]()] as const));
  const force = bool(args, 'force');
  // check every target before writing any, so a refusal leaves no half-written set behind
  for (const [path] of files) refuseOverwrite(path, force);
  for (const [path, text] of files) writeOutput(path, text, true);
  for (const [path] of files) io.err(`created ${path}`);
  return 0;
}

const withValue = <K extends string>(key: K, v: string | undefined): Partial<Record<K, string>> =>
  v === undefined ? {} : ({ [key]: v } as Record<K, string>);

/** report prints what validation found; generated output must be valid in the least demanding mode. */
function report(name: string, cfg: Config, io: Output): boolean {
  const { warnings, errors } = validate(cfg, { mode: 'cloud' });
  for (const w of warnings) io.err(`warning: ${name}: ${w.message}`);
  for (const e of errors) io.err(`${name}: ${e.message}`);
  return errors.length === 0;
}
