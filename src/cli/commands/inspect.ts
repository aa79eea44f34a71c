// `keelctl inspect dependencies`: the controller runtime's controller→resource graph in Graphviz dot, as
// talosctl draws it (controllers as boxes, resource types as notes; outputs bold or solid, weak inputs dotted).
import { type ParsedArgs, UsageError } from '../args.js';
import { globalFlags, joinErrors, unaryEach, withSession } from '../client/index.js';
import type { Command } from '../command.js';
import { type Output, writeRaw } from '../io.js';
import { dotGraph } from '../output/index.js';

export const inspectDependenciesCommand: Command = {
  name: 'inspect dependencies',
  summary: 'Inspect controller-resource dependencies as graphviz graph',
  flags: {},
  global: globalFlags,
  run: runInspect,
};

export interface DependencyEdge {
  controller_name?: string;
  edge_type?: string;
  resource_namespace?: string;
  resource_type?: string;
  resource_id?: string;
}

const RESOURCE_STYLE = { shape: 'note', fillcolor: 'azure2', style: 'filled' };

/** dependencyGraph draws the edges: every node first (in edge order), then the edges. */
export function dependencyGraph(edges: readonly DependencyEdge[]): string {
  const g = dotGraph();
  for (const e of edges) {
    g.node(e.controller_name ?? '', { shape: 'box' });
    g.node(e.resource_type ?? '', RESOURCE_STYLE);
  }
  for (const e of edges) {
    const ctrl = e.controller_name ?? '';
    const type = e.resource_type ?? '';
    const label: Record<string, string> = e.resource_id ? { label: e.resource_id } : {};
    switch (e.edge_type ?? 'OUTPUT_EXCLUSIVE') {
      case 'OUTPUT_EXCLUSIVE':
        g.edge(ctrl, type, { style: 'bold' });
        break;
      case 'OUTPUT_SHARED':
        g.edge(ctrl, type, { style: 'solid' });
        break;
      case 'INPUT_STRONG':
        g.edge(type, ctrl, { ...label, style: 'solid' });
        break;
      case 'INPUT_WEAK':
        g.edge(type, ctrl, { ...label, style: 'dotted' });
        break;
      default: // destroy-ready inputs are left out to reduce clutter, as upstream does
    }
  }
  return g.write();
}

async function runInspect(args: ParsedArgs, io: Output, signal: AbortSignal): Promise<number> {
  if (args.positional.length) throw new UsageError('inspect dependencies takes no arguments');
  const { replies, errors } = await withSession(args, {}, (s) => {
    if (s.nodes.length > 1)
      throw new UsageError('inspect dependencies works against one node: give a single -n');
    return unaryEach<{ edges?: DependencyEdge[] }>(
      s,
      'inspect.InspectService',
      'ControllerRuntimeDependencies',
      {},
      signal,
    );
  });
  const err = joinErrors(errors);
  if (err) throw err;
  writeRaw(io, dependencyGraph(replies.flatMap((r) => r.message.edges ?? [])));
  return 0;
}
