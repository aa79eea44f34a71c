// The roles of the API call being served, carried into code that has no call of its own: the COSI
// State service's access rule (cosi-access.ts) reads them while mount-state.ts runs the call.
import { AsyncLocalStorage } from 'node:async_hooks';

export const callerRoles = new AsyncLocalStorage<ReadonlySet<string>>();
