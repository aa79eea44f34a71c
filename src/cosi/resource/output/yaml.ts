// renderYAML prints entries as `talosctl get -o yaml` does: a node line, an event line when watching, the document.
import { marshalResourceYAML } from '../yaml.js';
import { eventOf, type OutputEntry, printable, type RenderOptions } from './entry.js';

/** renderYAMLDocument is one entry's text, without the `---` that separates it from the one before. */
export function renderYAMLDocument(node: string, resourceYAML: string, event?: string): string {
  return `node: ${node}\n${event === undefined ? '' : `event: ${event}\n`}${resourceYAML}`;
}

/** renderYAML prints every printable entry, with `---` between documents. */
export function renderYAML(entries: readonly OutputEntry[], opts: RenderOptions = {}): string {
  return entries
    .filter(printable)
    .map((e) =>
      renderYAMLDocument(e.node, marshalResourceYAML(e.resource), opts.withEvents ? eventOf(e) : undefined),
    )
    .join('---\n');
}
