// OutputEntry: one resource as `talosctl get` receives it, with the node it came from and, when watching, the event.

import type { EventType } from '../../state/events.js';
import type { Resource } from '../resource.js';

export interface OutputEntry {
  /** the node the resource came from, printed as is */
  readonly node: string;
  readonly resource: Resource;
  /** the watch event; absent for a plain get or list */
  readonly event?: EventType;
}

export interface RenderOptions {
  /** watching: print the event of each entry (talosctl get --watch) */
  readonly withEvents?: boolean;
}

/** eventOf is the event to print; Go's zero EventType is Created, which an entry without one gets. */
export const eventOf = (e: OutputEntry): EventType => e.event ?? 'created';

/** printable drops the events talosctl never prints: bootstrapped, errored and noop carry no resource change. */
export const printable = (e: OutputEntry): boolean =>
  e.event === undefined || e.event === 'created' || e.event === 'updated' || e.event === 'destroyed';
