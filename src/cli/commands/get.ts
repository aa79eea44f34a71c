// `keelctl get <type> [id]`: resolve the type by the node's ResourceDefinitions, then list, get or watch
// it on every node (one call per node, as COSI refuses one-to-many) and print table, YAML or JSON.
import type { ResourceDefinitionSpec } from '../../cosi/resource/definition.js';
import { resolveTypeIn } from '../../cosi/resource/meta/index.js';
import { type OutputEntry, renderJSON, renderTable, renderYAML } from '../../cosi/resource/output/index.js';
import type { Resource } from '../../cosi/resource/resource.js';
import type { StateEvent } from '../../cosi/state/events.js';
import { bool, type ParsedArgs, str, UsageError } from '../args.js';
import {
  type ClientError,
  fromRPC,
  globalFlags,
  insecureFlag,
  joinErrors,
  type Session,
  withSession,
} from '../client/index.js';
import type { Command } from '../command.js';
import type { Output } from '../io.js';
import { renderWatchRow } from '../output/index.js';

type Format = 'table' | 'yaml' | 'json';
const FORMATS: readonly Format[] = ['table', 'yaml', 'json'];

export const getCommand: Command = {
  name: 'get',
  aliases: ['g'],
  args: '<type> [<id>]',
  summary:
    "Get a specific resource or list of resources (use 'keelctl get rd' to see all available resource types)",
  flags: {
    ...insecureFlag,
    namespace: {
      kind: 'string',
      usage: 'resource namespace (default is to use default namespace per resource)',
    },
    output: {
      kind: 'string',
      short: 'o',
      default: 'table',
      usage: `output mode: ${FORMATS.join(', ')}`,
    },
    watch: { kind: 'bool', short: 'w', usage: 'watch resource changes' },
  },
  global: globalFlags,
  run: runGet,
};

/** targets are the nodes asked one by one; in maintenance mode the endpoint itself, named "" as talosctl does. */
const targets = (s: Session): readonly string[] => (s.nodes.length ? s.nodes : ['']);

/** trimmed drops the renderers' final newline, since every printed line gets one. */
const trimmed = (text: string) => text.replace(/\n$/, '');

async function runGet(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  const [typeArg, id, ...extra] = args.positional;
  if (!typeArg || extra.length) throw new UsageError('get takes a resource type and an optional id');
  const format = str(args, 'output') as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`unknown output format ${JSON.stringify(format)}: table, yaml or json`);

  return withSession(args, { insecure: bool(args, 'insecure') }, async (s) => {
    const nodes = targets(s);
    const first = nodes[0]!;
    const route = s.one; // one call per node, with `node` metadata; direct in maintenance mode
    let rd: ResourceDefinitionSpec;
    try {
      rd = await resolveTypeIn(s.conn.state(route(first)), typeArg, { signal });
    } catch (e) {
      throw fromRPC(e, first || s.direct, 'resolving the resource type');
    }
    const namespace = str(args, 'namespace') || rd.defaultNamespace;
    const kind = { namespace, type: rd.type };
    const ctx = { s, io, rd, kind, format, nodes, route, signal };
    return bool(args, 'watch') ? watch(ctx, id) : once(ctx, id);
  });
}

interface GetContext {
  readonly s: Session;
  readonly io: Output;
  readonly rd: ResourceDefinitionSpec;
  readonly kind: { readonly namespace: string; readonly type: string };
  readonly format: Format;
  readonly nodes: readonly string[];
  readonly route: (node: string) => ReturnType<Session['one']>;
  readonly signal: AbortSignal;
}

/** nodeFailure names the node a call failed on; in maintenance mode there is only the endpoint. */
const nodeFailure = (c: GetContext, node: string, e: unknown): ClientError => fromRPC(e, node || c.s.direct);

async function once(c: GetContext, id: string | undefined): Promise<number> {
  const entries: OutputEntry[] = [];
  const errors: ClientError[] = [];
  for (const node of c.nodes) {
    const state = c.s.conn.state(c.route(node));
    const opts = { signal: c.signal, skipProtobufUnmarshal: true };
    try {
      const found: Resource[] = id
        ? [await state.get({ ...c.kind, id }, opts)]
        : await state.list(c.kind, opts);
      for (const resource of found) entries.push({ node, resource });
    } catch (e) {
      errors.push(nodeFailure(c, node, e));
    }
  }
  const text =
    c.format === 'table'
      ? renderTable(c.rd, entries)
      : c.format === 'yaml'
        ? renderYAML(entries)
        : renderJSON(entries);
  if (text) c.io.out(trimmed(text));
  const err = joinErrors(errors);
  if (err) throw err;
  return 0;
}

/** A watch event, tagged with the node it came from. */
type Tagged = { readonly node: string; readonly event: StateEvent };

async function watch(c: GetContext, id: string | undefined): Promise<number> {
  const queue: Tagged[] = [];
  let wake: (() => void) | undefined;
  let failure: ClientError | undefined;
  let open = c.nodes.length;
  const streams = await Promise.all(
    c.nodes.map(async (node) => {
      const state = c.s.conn.state(c.route(node));
      const opts = { signal: c.signal, skipProtobufUnmarshal: true };
      try {
        return id
          ? await state.watch({ ...c.kind, id }, opts)
          : await state.watchKind(c.kind, { ...opts, bootstrapContents: true });
      } catch (e) {
        throw nodeFailure(c, node, e);
      }
    }),
  );
  // Each node's stream drains into one queue, so rows print in arrival order across nodes.
  const pumps = streams.map(async (stream, i) => {
    const node = c.nodes[i]!;
    try {
      for await (const event of stream) {
        queue.push({ node, event });
        wake?.();
      }
    } catch (e) {
      if (!c.signal.aborted) failure ??= nodeFailure(c, node, e);
    } finally {
      open--;
      wake?.();
    }
  });

  const printer = newWatchPrinter(c, id === undefined ? c.nodes.length : 0);
  // one listener for the whole watch: Ctrl-C wakes the loop, which then sees the signal and leaves
  const onAbort = () => wake?.();
  c.signal.addEventListener('abort', onAbort, { once: true });
  try {
    while (!c.signal.aborted) {
      const next = queue.shift();
      if (next) {
        if (next.event.type === 'errored') {
          failure ??= nodeFailure(c, next.node, next.event.error);
          break;
        }
        printer(next.node, next.event);
        continue;
      }
      if (failure || open === 0) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    c.signal.removeEventListener('abort', onAbort);
    for (const s of streams) s.close();
    await Promise.all(pumps);
  }
  if (failure) throw failure;
  return 0;
}

/**
 * newWatchPrinter prints as talosctl's watch does: YAML and JSON documents at once; the table's header
 * and first rows together once every node has bootstrapped (at the first event for a single-resource
 * watch), then each later row alone.
 */
function newWatchPrinter(c: GetContext, bootstrapping: number): (node: string, e: StateEvent) => void {
  let pending = bootstrapping;
  let flushed = false;
  let documents = 0;
  const buffered: OutputEntry[] = [];
  const flush = () => {
    c.io.out(trimmed(renderTable(c.rd, buffered, { withEvents: true })));
    buffered.length = 0;
    flushed = true;
  };
  return (node, e) => {
    if (e.type === 'bootstrapped') {
      if (--pending === 0 && !flushed && c.format === 'table') flush();
      return;
    }
    if (e.type !== 'created' && e.type !== 'updated' && e.type !== 'destroyed') return;
    const entry: OutputEntry = { node, resource: e.resource, event: e.type };
    if (c.format === 'yaml') {
      c.io.out(trimmed(`${documents++ > 0 ? '---\n' : ''}${renderYAML([entry], { withEvents: true })}`));
    } else if (c.format === 'json') {
      c.io.out(trimmed(renderJSON([entry], { withEvents: true })));
    } else if (flushed) {
      c.io.out(trimmed(renderWatchRow(c.rd, entry)));
    } else {
      buffered.push(entry);
      if (pending <= 0) flush();
    }
  };
}
