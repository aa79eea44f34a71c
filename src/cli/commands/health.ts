// `keelctl health`: the node runs the cluster health checks (ClusterService.HealthCheck) and streams its
// progress, one message per line on stderr, as talosctl's default (server-side) health does.
import { type ParsedArgs, str, strs, UsageError } from '../args.js';
import { ClientError, fromRPC, globalFlags, nodeReply, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { parseGoDuration } from '../parse-duration.js';

export const healthCommand: Command = {
  name: 'health',
  summary: 'Check cluster health',
  flags: {
    'control-plane-nodes': { kind: 'list', commas: true, usage: 'specify IPs of control plane nodes' },
    'worker-nodes': { kind: 'list', commas: true, usage: 'specify IPs of worker nodes' },
    'init-node': { kind: 'string', usage: 'specify IPs of init node' },
    'wait-timeout': {
      kind: 'string',
      type: 'duration',
      default: '20m',
      usage: 'timeout to wait for the cluster to be ready',
    },
    'k8s-endpoint': { kind: 'string', usage: 'use endpoint instead of kubeconfig default' },
  },
  global: globalFlags,
  run: runHealth,
};

async function runHealth(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
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
