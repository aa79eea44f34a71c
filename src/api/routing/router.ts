// The generic router: serve here, forward to one node untouched, or fan out to many nodes and merge their
// replies into one envelope, for any unary or server-streaming method given as bytes.
import { Metadata, status } from '@grpc/grpc-js';
import { ROLE_METADATA_KEY } from '../auth/roles.js';
import { NodeError, stampStreamed, stampUnary, streamFailure, unaryFailure } from './envelope.js';
import type { Forwarder, ForwardOptions } from './forwarder.js';
import { NODE_KEY, NODES_KEY, PROXY_FROM_KEY, type Route } from './targets.js';

/** Sink takes one serialized message and resolves when the transport can take more. */
export type Sink = (msg: Buffer) => Promise<void>;

/** LocalCall runs a method on this node; the router never looks inside the bytes. */
export interface LocalCall {
  unary(request: Buffer): Promise<Buffer>;
  serverStream(request: Buffer, sink: Sink): Promise<void>;
}

export interface RouteContext {
  readonly method: string;
  readonly route: Route;
  /** the caller's metadata, forwarded minus the routing keys */
  readonly metadata: Metadata;
  /** the caller's roles, passed on as `talos-role` */
  readonly roles: ReadonlySet<string>;
  /** who we are, for `proxyfrom` on the next hop */
  readonly self: string;
  readonly signal: AbortSignal;
  readonly deadline?: ForwardOptions['deadline'];
  /** true for a target that names this node: served here rather than dialled */
  readonly isLocal: (node: string) => boolean;
  /** absent when this node has no client certificate to forward with */
  readonly forwarder?: Forwarder;
}

/** forwardMetadata is what the next hop sees: the caller's keys, our name, and the caller's roles. */
export function forwardMetadata(ctx: Pick<RouteContext, 'metadata' | 'roles' | 'self'>): Metadata {
  const md = new Metadata();
  for (const [key, values] of Object.entries(ctx.metadata.toJSON())) {
    if (key === NODES_KEY || key === NODE_KEY || key === ROLE_METADATA_KEY || key.startsWith(':')) continue;
    for (const v of values) md.add(key, v);
  }
  md.set(PROXY_FROM_KEY, ctx.self);
  for (const r of ctx.roles) md.add(ROLE_METADATA_KEY, r);
  return md;
}

function forwarderFor(ctx: RouteContext, node: string): Forwarder {
  if (!ctx.forwarder)
    throw new NodeError(
      node,
      status.PERMISSION_DENIED,
      `no request forwarding: this node cannot reach ${node}`,
    );
  return ctx.forwarder;
}

const forwardOptions = (ctx: RouteContext): ForwardOptions => ({
  metadata: forwardMetadata(ctx),
  signal: ctx.signal,
  ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
});

async function unaryOn(ctx: RouteContext, node: string, request: Buffer, local: LocalCall): Promise<Buffer> {
  if (ctx.isLocal(node)) return local.unary(request);
  return forwarderFor(ctx, node).unary(node, ctx.method, request, forwardOptions(ctx));
}

async function streamOn(ctx: RouteContext, node: string, request: Buffer, local: LocalCall, sink: Sink) {
  if (ctx.isLocal(node)) return local.serverStream(request, sink);
  for await (const msg of forwarderFor(ctx, node).serverStream(
    node,
    ctx.method,
    request,
    forwardOptions(ctx),
  ))
    await sink(msg);
}

/** routeUnary returns the reply bytes; in one-to-many mode every node contributes its element(s). */
export async function routeUnary(ctx: RouteContext, request: Buffer, local: LocalCall): Promise<Buffer> {
  const { route } = ctx;
  if (route.kind === 'local') return local.unary(request);
  if (route.kind === 'one-to-one') return unaryOn(ctx, route.node, request, local);
  // Repeated field 1 concatenates, so each node's reply bytes simply follow each other.
  const replies = await Promise.all(
    route.nodes.map(async (node) => {
      try {
        return stampUnary(node, ctx.method, await unaryOn(ctx, node, request, local));
      } catch (err) {
        return unaryFailure(node, err);
      }
    }),
  );
  return Buffer.concat(replies);
}

/** routeServerStream writes every message to `sink`; in one-to-many mode the nodes' streams interleave. */
export async function routeServerStream(
  ctx: RouteContext,
  request: Buffer,
  local: LocalCall,
  sink: Sink,
): Promise<void> {
  const { route } = ctx;
  if (route.kind === 'local') return local.serverStream(request, sink);
  if (route.kind === 'one-to-one') return streamOn(ctx, route.node, request, local, sink);
  await Promise.all(
    route.nodes.map(async (node) => {
      try {
        await streamOn(ctx, node, request, local, (msg) => sink(stampStreamed(node, ctx.method, msg)));
      } catch (err) {
        if (!ctx.signal.aborted) await sink(streamFailure(node, err));
      }
    }),
  );
}

/** StreamedLocal runs a streamed-request method here. */
export interface StreamedLocal {
  clientStream(requests: AsyncIterable<Buffer>): Promise<Buffer>;
  bidiStream(requests: AsyncIterable<Buffer>, sink: Sink): Promise<void>;
}

/**
 * singleTarget: a request stream can go to one node only (it cannot be replayed to several). `nodes` with a
 * single entry is what talosctl sends for one node, so it is accepted and its replies named.
 */
function singleTarget(ctx: RouteContext): { node: string; stamp: boolean } | undefined {
  const { route } = ctx;
  if (route.kind === 'local') return undefined;
  if (route.kind === 'one-to-one') return { node: route.node, stamp: false };
  if (route.nodes.length !== 1)
    throw new NodeError(
      route.nodes.join(','),
      status.INVALID_ARGUMENT,
      `one-2-many proxying is not supported for streamed requests of ${ctx.method}`,
    );
  return { node: route.nodes[0]!, stamp: true };
}

/** routeClientStream sends a request stream to one node (or here) and returns its reply. */
export async function routeClientStream(
  ctx: RouteContext,
  requests: AsyncIterable<Buffer>,
  local: StreamedLocal,
): Promise<Buffer> {
  const target = singleTarget(ctx);
  if (!target) return local.clientStream(requests);
  const reply = ctx.isLocal(target.node)
    ? await local.clientStream(requests)
    : await forwarderFor(ctx, target.node).clientStream(
        target.node,
        ctx.method,
        requests,
        forwardOptions(ctx),
      );
  return target.stamp ? stampUnary(target.node, ctx.method, reply) : reply;
}

/** routeBidiStream connects a request stream to one node (or here) and relays its replies. */
export async function routeBidiStream(
  ctx: RouteContext,
  requests: AsyncIterable<Buffer>,
  local: StreamedLocal,
  sink: Sink,
): Promise<void> {
  const target = singleTarget(ctx);
  if (!target) return local.bidiStream(requests, sink);
  const out: Sink = target.stamp ? (msg) => sink(stampStreamed(target.node, ctx.method, msg)) : sink;
  if (ctx.isLocal(target.node)) return local.bidiStream(requests, out);
  const replies = forwarderFor(ctx, target.node).bidiStream(
    target.node,
    ctx.method,
    requests,
    forwardOptions(ctx),
  );
  for await (const msg of replies) await out(msg);
}
