// What `talosctl get` prints: YAML, JSON and table renderings of resources, pure text in and out,
// plus the Go-compatible YAML/JSON encoders, JSONPath and tabwriter they rest on.
export { eventOf, type OutputEntry, printable, type RenderOptions } from './entry.js';
export { goJSON, quoteGo } from './gojson.js';
export { renderJSON, yamlToJSON } from './json.js';
export { executeJSONPath, type JSONPath, JSONPathError, parseJSONPath } from './jsonpath.js';
export { renderTable, type TableDefinition } from './table.js';
export { type TabwriterOptions, tabwrite } from './tabwriter.js';
export { renderYAML, renderYAMLDocument } from './yaml.js';
