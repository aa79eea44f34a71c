// One table row on its own, for watch output: after the first flush talosctl's tabwriter lays out each
// event's row alone, so its widths are that row's, not the table's.

import { OpaqueResource } from '../../cosi/resource/opaque.js';
import { type GoValue, goValue, parseYAML } from '../../cosi/resource/output/goyaml/index.js';
import type { OutputEntry } from '../../cosi/resource/output/index.js';
import {
  executeJSONPath,
  parseJSONPath,
  type TableDefinition,
  tabwrite,
} from '../../cosi/resource/output/index.js';
import { isTombstone, type Resource } from '../../cosi/resource/resource.js';
import { versionString } from '../../cosi/resource/version.js';
import { specYAML } from '../../cosi/resource/yaml.js';

const LABELS: Readonly<Record<string, string>> = { created: '+', destroyed: '-', updated: ' ' };

/** specValue reads the spec as the print columns see it: the yaml_spec as Go's yaml.Unmarshal would. */
function specValue(r: Resource): GoValue {
  if (isTombstone(r)) return null;
  const text = r instanceof OpaqueResource ? r.spec.yamlSpec : specYAML(r);
  return goValue(parseYAML(text), { ints: 'bigint', keys: 'text', times: 'go' });
}

/** renderWatchRow is one watch event's row, `*` column included, padded as a one-line tabwriter flush. */
export function renderWatchRow(def: TableDefinition, e: OutputEntry): string {
  const md = e.resource.metadata;
  const spec = def.printColumns.length > 0 ? specValue(e.resource) : null;
  const cells = [
    e.node,
    LABELS[e.event ?? 'created'] ?? '',
    md.namespace,
    def.displayType,
    md.id,
    versionString(md.version),
    ...def.printColumns.map((c) => executeJSONPath(parseJSONPath(c.jsonPath), spec)),
  ];
  return tabwrite(`${cells.join('\t')}\n`, { padding: 3 });
}
