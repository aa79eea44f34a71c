// `keelctl bootstrap`: starts etcd's cluster on one control plane node, once per cluster, as talosctl
// bootstrap does; the node refuses it (and says why) when it is not a control plane, is not ready for it
// yet, or its etcd already has data.
import { bool, type ParsedArgs, UsageError } from '../args.js';
import { globalFlags, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';

export const bootstrapCommand: Command = {
  name: 'bootstrap',
  summary: 'Bootstrap the etcd cluster on the specified node.',
  flags: {
    'recover-skip-hash-check': {
      kind: 'bool',
      usage: 'skip integrity check when recovering etcd (use when recovering from data directory copy)',
    },
  },
  global: globalFlags,
  run: runBootstrap,
};

async function runBootstrap(args: ParsedArgs, _io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('bootstrap takes no arguments');
  const { errors } = await withSession(args, {}, (s) => {
    // upstream: bootstrapping is one node's act, never a fan-out
    if (s.nodes.length > 1) throw new UsageError('bootstrap works on one node at a time: give a single -n');
    return unaryEach(
      s,
      'machine.MachineService',
      'Bootstrap',
      { recover_etcd: false, recover_skip_hash_check: bool(args, 'recover-skip-hash-check') },
      signal,
    );
  });
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}
