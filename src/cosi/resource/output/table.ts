// renderTable prints entries as `talosctl get` (table output) does: fixed columns, one per print column, tabwriter layout.
import type { PrintColumn } from '../definition.js';
import { OpaqueResource } from '../opaque.js';
import { isTombstone, type Resource } from '../resource.js';
import { versionString } from '../version.js';
import { specYAML } from '../yaml.js';
import { eventOf, type OutputEntry, printable, type RenderOptions } from './entry.js';
import { type GoValue, goValue, parseYAML } from './goyaml/index.js';
import { executeJSONPath, type JSONPath, JSONPathError, parseJSONPath } from './jsonpath.js';
import { tabwrite } from './tabwriter.js';

/** What the table needs from the type's ResourceDefinition. */
export interface TableDefinition {
  readonly displayType: string;
  readonly printColumns: readonly PrintColumn[];
}

const LABELS: Readonly<Record<string, string>> = { created: '+', destroyed: '-', updated: ' ' };

/** specValue is the spec as a print column sees it: the yaml_spec read back as Go's yaml.Unmarshal would. */
function specValue(r: Resource): GoValue {
  if (isTombstone(r)) return null;
  const text = r instanceof OpaqueResource ? r.spec.yamlSpec : specYAML(r);
  return goValue(parseYAML(text), { ints: 'bigint', keys: 'text', times: 'go' });
}

/** renderTable lays out the header and one row per printable entry; the output ends with a newline. */
export function renderTable(
  def: TableDefinition,
  entries: readonly OutputEntry[],
  opts: RenderOptions = {},
): string {
  const columns: { name: string; path: JSONPath }[] = def.printColumns.map((c) => {
    try {
      return { name: c.name.toUpperCase(), path: parseJSONPath(c.jsonPath) };
    } catch (cause) {
      throw new JSONPathError(
        c.jsonPath,
        `error parsing column ${JSON.stringify(c.name)}: ${(cause as Error).message}`,
      );
    }
  });
  const rows: string[][] = [
    [
      'NODE',
      ...(opts.withEvents ? ['*'] : []),
      'NAMESPACE',
      'TYPE',
      'ID',
      'VERSION',
      ...columns.map((c) => c.name),
    ],
  ];
  for (const e of entries) {
    if (!printable(e)) continue;
    const md = e.resource.metadata;
    const spec = columns.length > 0 ? specValue(e.resource) : null;
    rows.push([
      e.node,
      ...(opts.withEvents ? [LABELS[eventOf(e)] ?? ''] : []),
      md.namespace,
      def.displayType,
      md.id,
      versionString(md.version),
      ...columns.map((c) => executeJSONPath(c.path, spec)),
    ]);
  }
  return tabwrite(rows.map((r) => `${r.join('\t')}\n`).join(''), { padding: 3 });
}
