// What reboot, shutdown and reset share: call the action on every node, then (with --wait, the default)
// follow each node's progress to its end; without it, fire and return.
import type { Flags, ParsedArgs } from '../args.js';
import { bool, str, UsageError } from '../args.js';
import {
  type ClientError,
  type Goal,
  joinErrors,
  readBootId,
  type Session,
  trackNode,
  unaryEach,
  withSession,
} from '../client/index.js';
import type { Output } from '../io.js';
import { parseGoDuration } from '../parse-duration.js';

export const waitFlags: Flags = {
  wait: {
    kind: 'bool',
    default: true,
    usage: 'wait for the operation to complete, tracking its progress',
  },
  timeout: {
    kind: 'string',
    type: 'duration',
    default: '30m',
    usage: 'time to wait for the operation to complete if --wait is set',
  },
};

export interface PowerAction {
  readonly method: 'Reboot' | 'Shutdown' | 'Reset';
  readonly request: object;
  readonly goal: Goal;
  readonly bootIdChanges: boolean;
  readonly insecure?: boolean;
}

export async function runPowerAction(
  args: ParsedArgs,
  action: PowerAction,
  io: Output,
  signal: AbortSignal,
): Promise<number> {
  if (args.positional.length)
    throw new UsageError(`unexpected argument ${JSON.stringify(args.positional[0])}`);
  const timeoutMs = parseGoDuration(str(args, 'timeout')!) * 1000;
  const errors: ClientError[] = [];
  await withSession(args, { insecure: action.insecure === true }, async (s) => {
    const wait = bool(args, 'wait');
    const targets = s.nodes.length ? s.nodes : [s.direct];
    const pre = new Map<string, string>();
    if (wait && action.bootIdChanges) await readBootIds(s, targets, pre, errors, signal);
    const live = targets.filter((n) => !errors.some((e) => e.node === n));
    if (live.length === 0) return;
    const target: Session = s.nodes.length
      ? { ...s, nodes: live, fanOut: { kind: 'nodes', nodes: live } }
      : s;
    const { replies, errors: failed } = await unaryEach<{ actor_id?: string }>(
      target,
      'machine.MachineService',
      action.method,
      action.request,
      signal,
    );
    errors.push(...failed);
    if (!wait) return;
    const opts = { goal: action.goal, bootIdChanges: action.bootIdChanges, timeoutMs, signal };
    await Promise.all(
      replies.map(async ({ node, message }) => {
        try {
          await trackNode(s, io, node, message.actor_id ?? '', pre.get(node), opts);
        } catch (e) {
          errors.push(e as ClientError);
        }
      }),
    );
  });
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}

async function readBootIds(
  s: Session,
  nodes: readonly string[],
  into: Map<string, string>,
  errors: ClientError[],
  signal: AbortSignal,
): Promise<void> {
  await Promise.all(
    nodes.map(async (n) => {
      try {
        into.set(n, await readBootId(s, n, signal));
      } catch (e) {
        errors.push(e as ClientError);
      }
    }),
  );
}
