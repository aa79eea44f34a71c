// A directed graph written in Graphviz dot as the emicklei/dot package (which talosctl uses) writes it:
// nodes numbered in creation order, attributes sorted, nodes and edge groups sorted by node id, tab indent.

type Attrs = Record<string, string>;

interface DotNode {
  readonly seq: number;
  readonly attrs: Attrs;
}

export interface DotGraph {
  /** node returns the node `id`, creating it (labelled with its id) on first use */
  node(id: string, attrs?: Attrs): DotNode;
  edge(from: string, to: string, attrs: Attrs): void;
  write(): string;
}

const list = (a: Attrs, bracket: boolean) => {
  const keys = Object.keys(a).sort();
  if (keys.length === 0) return '';
  const body = keys.map((k) => `${k}=${JSON.stringify(a[k])}`).join(bracket ? ',' : ';');
  return bracket ? `[${body}]` : `${body};`;
};

export function dotGraph(): DotGraph {
  const nodes = new Map<string, DotNode>();
  const edges = new Map<string, { to: string; attrs: Attrs }[]>();
  const node = (id: string, attrs: Attrs = {}) => {
    let n = nodes.get(id);
    if (!n) {
      n = { seq: nodes.size + 1, attrs: { label: id } };
      nodes.set(id, n);
    }
    Object.assign(n.attrs, attrs);
    return n;
  };
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    node,
    edge(from, to, attrs) {
      node(from);
      node(to);
      edges.set(from, [...(edges.get(from) ?? []), { to, attrs }]);
    },
    write() {
      let out = 'digraph  {\n\t\n\t';
      for (const id of [...nodes.keys()].sort(byId)) {
        const n = nodes.get(id)!;
        out += `n${n.seq}${list(n.attrs, true)};\n\t`;
      }
      for (const from of [...edges.keys()].sort(byId))
        for (const e of edges.get(from)!)
          out += `n${nodes.get(from)!.seq}->n${nodes.get(e.to)!.seq}${list(e.attrs, true)};\n\t`;
      return `${out}\n}\n`;
    },
  };
}
