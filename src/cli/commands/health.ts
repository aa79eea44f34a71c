// `keelctl health`: the node runs the cluster health checks (ClusterService.HealthCheck) and streams its
// progress, one message per line on stderr, as talosctl's default (server-side) health does.
import { parseArgs, str, strs, UsageError } from '../args.js';
import { ClientError, fromRPC, globalFlags, nodeReply, withSession } from '../client/index.js';
import type { Output } from '../io.js';
import { parseGoDuration } from './apply-config.js';

export const healthUsage =
  'health [--control-plane-nodes n,..] [--worker-nodes n,..] [--init-node n] [--wait-timeout D] [--k8s-endpoint e]';

export async function runHealth(argv: readonly string[], io: Output, signal: AbortSignal): Promise<number> {
  const args = parseArgs(argv, {
    ...globalFlags,
    'control-plane-nodes': { kind: 'list', commas: true },
    'worker-nodes': { kind: 'list', commas: true },
    'init-node': { kind: 'string' },
    'wait-timeout': { kind: 'string', default: '20m' },
    'k8s-endpoint': { kind: 'string' },
  });
  if (args.positional.length) throw new UsageError('health takes no arguments');
  const seconds = parseGoDuration(str(args, 'wait-timeout')!);
  const init = str(args, 'init-node');
  const request = {
    wait_timeout: { seconds: String(Math.trunc(seconds)), nanos: 0 },
    cluster_info: {
      control_plane_nodes: [...strs(args, 'control-plane-nodes'), ...(init ? [init] : [])],
      worker_nodes: strs(args, 'worker-nodes'),
      force_endpoint: str(args, 'k8s-endpoint') ?? '',
    },
  };
  await withSession(args, {}, async (s) => {
    if (s.nodes.length > 1) throw new UsageError('health works against one node: give a single -n');
    const node = s.nodes[0] ?? s.direct;
    try {
      for await (const m of s.conn.stream<{ message?: string; metadata?: { error?: string } }>(
        'cluster.ClusterService',
        'HealthCheck',
        request,
        { route: s.fanOut, signal },
      )) {
        const r = nodeReply(m, node);
        if (!r.ok)
          throw new ClientError(
            'node',
            `error on node ${r.node}: healthcheck error: ${m.metadata?.error}`,
            r.node,
          );
        io.err(m.message ?? '');
      }
    } catch (e) {
      throw fromRPC(e, node);
    }
  });
  return 0;
}
