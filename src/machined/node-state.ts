// The node's COSI state: in memory, each kind's history kept for watchers that resume from a bookmark.
// Made by machined's start, or earlier by startNode when a maintenance API listens before that start.
import { newInmemState } from '../cosi/state/inmem/index.js';
import type { State } from '../cosi/state/state.js';
import { wrapCore } from '../cosi/state/wrap.js';

export const newNodeState = (): State => wrapCore(newInmemState({ historyMaxCapacity: 1024 }));
