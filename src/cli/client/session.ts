// A command's view of the cluster: which endpoint to dial, with which credentials, and which nodes to target,
// from the global flags and the talosconfig (or, with --insecure, from -n alone).
import type { Flags, ParsedArgs } from '../args.js';
import { str, strs } from '../args.js';
import { type Connection, connect, type Route } from './connection.js';
import { insecureTLS, mutualTLS } from './credentials.js';
import { endpointAddress } from './endpoint.js';
import { ClientError } from './errors.js';
import { currentContext, readTalosconfig, talosconfigPath } from './talosconfig.js';

/** The flags that pick the client config, taken by every command that reads it (`config` too). */
export const configFlags: Flags = {
  talosconfig: {
    kind: 'string',
    usage:
      "the path to the client configuration file; defaults to $KEELCONFIG, $TALOSCONFIG, '~/.keel/config' if it exists, then '~/.talos/config'",
  },
  context: { kind: 'string', usage: 'context to be used in command' },
};

/** The flags every API command takes, as talosctl's persistent flags. */
export const globalFlags: Flags = {
  ...configFlags,
  endpoints: {
    kind: 'list',
    short: 'e',
    commas: true,
    usage: 'override default endpoints in the client configuration',
  },
  nodes: { kind: 'list', short: 'n', commas: true, usage: 'target the specified nodes' },
};

/** The maintenance-mode switch of the commands that accept it. */
export const insecureFlag: Flags = {
  insecure: {
    kind: 'bool',
    short: 'i',
    usage: 'use the maintenance mode API: TLS without a client certificate, the first node named by -n',
  },
};

export interface Session {
  readonly conn: Connection;
  /** the target nodes; empty in --insecure mode, where the endpoint itself answers */
  readonly nodes: readonly string[];
  /** the name of the node answering directly, for replies that carry none */
  readonly direct: string;
  /** the one-to-many route over every target */
  readonly fanOut: Route;
  /** the route to one node (COSI refuses one-to-many) */
  readonly one: (node: string) => Route;
  close(): void;
}

export const NO_NODES =
  'nodes are not set for the command: please use `--nodes` flag or configuration file to set the nodes to run the command against';

/** openSession resolves the target; --insecure skips the talosconfig and dials the first -n node. */
export function openSession(args: ParsedArgs, opts: { readonly insecure?: boolean } = {}): Session {
  if (opts.insecure) {
    const targets = strs(args, 'nodes').length ? strs(args, 'nodes') : strs(args, 'endpoints');
    const first = targets[0];
    if (!first) throw new ClientError('config', NO_NODES);
    const conn = connect(endpointAddress(first), insecureTLS(), 'insecure');
    return {
      conn,
      nodes: [],
      direct: first,
      fanOut: { kind: 'direct' },
      one: () => ({ kind: 'direct' }),
      close: () => conn.close(),
    };
  }
  const path = talosconfigPath(str(args, 'talosconfig'));
  const { name, context } = currentContext(readTalosconfig(path), str(args, 'context'));
  const endpoints = strs(args, 'endpoints').length ? strs(args, 'endpoints') : context.endpoints;
  const endpoint = endpoints[0];
  if (!endpoint) throw new ClientError('config', `context ${JSON.stringify(name)} has no endpoints`);
  const nodes = strs(args, 'nodes').length ? strs(args, 'nodes') : (context.nodes ?? []);
  if (nodes.length === 0) throw new ClientError('config', NO_NODES);
  const conn = connect(endpointAddress(endpoint), mutualTLS(context, name), 'mutual');
  return {
    conn,
    nodes,
    direct: endpoint,
    fanOut: { kind: 'nodes', nodes },
    one: (node) => ({ kind: 'node', node }),
    close: () => conn.close(),
  };
}

/** withSession runs `fn` and always closes the connection, so no channel outlives the command. */
export async function withSession<T>(
  args: ParsedArgs,
  opts: { readonly insecure?: boolean },
  fn: (s: Session) => Promise<T>,
): Promise<T> {
  const s = openSession(args, opts);
  try {
    return await fn(s);
  } finally {
    s.close();
  }
}
