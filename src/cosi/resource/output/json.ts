// renderJSON prints entries as `talosctl get -o json` does: the resource YAML re-read as a generic map,
// node (and event) keys added, then JSON with sorted keys and a 4-space indent.
import { marshalResourceYAML } from '../yaml.js';
import { eventOf, type OutputEntry, printable, type RenderOptions } from './entry.js';
import { goJSON } from './gojson.js';
import { type GoValue, goValue, parseYAML, YAMLError } from './goyaml/index.js';

/**
 * yamlToJSON re-reads a resource YAML document as Go's yaml.Unmarshal into a map does (so scalars
 * are re-typed: `version: 3` becomes 3, timestamps stay strings), adds the extra keys and encodes
 * it as json.Encoder with SetIndent("", "    ") does, trailing newline included.
 */
export function yamlToJSON(resourceYAML: string, extra: Readonly<Record<string, string>>): string {
  const root = parseYAML(resourceYAML);
  if (root === undefined || root.kind !== 'map')
    throw new YAMLError('decode', 'resource YAML: expected a mapping to add node and event keys to');
  const data = goValue(root, { ints: 'bigint', keys: 'strict', times: 'go' }) as { [key: string]: GoValue };
  for (const [k, v] of Object.entries(extra)) data[k] = v;
  return `${goJSON(data, '    ')}\n`;
}

/** renderJSON prints every printable entry as its own JSON document. */
export function renderJSON(entries: readonly OutputEntry[], opts: RenderOptions = {}): string {
  let out = '';
  for (const e of entries) {
    if (!printable(e)) continue;
    const extra: Record<string, string> = { node: e.node };
    if (opts.withEvents) extra.event = eventOf(e);
    out += yamlToJSON(marshalResourceYAML(e.resource), extra);
  }
  return out;
}
