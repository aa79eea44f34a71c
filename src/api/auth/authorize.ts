// The authorization decision for one call: does any of the caller's roles appear in the method's rule?
import { Role } from '../../pki/index.js';
import { ApiError } from '../errors.js';
import type { Caller } from './roles.js';
import { MAINTENANCE_WRITES, rolesFor } from './rules.js';

export type ApiMode = 'normal' | 'maintenance';

/** isAllowed is the pure rule check; in maintenance mode a reader may also apply the first config. */
export function isAllowed(method: string, roles: ReadonlySet<string>, mode: ApiMode): boolean {
  if (rolesFor(method).some((r) => roles.has(r))) return true;
  return mode === 'maintenance' && roles.has(Role.reader) && MAINTENANCE_WRITES.has(method);
}

/** authorize throws PERMISSION_DENIED naming the method when the caller may not call it. */
export function authorize(method: string, caller: Caller, mode: ApiMode): void {
  if (!isAllowed(method, caller.roles, mode))
    throw new ApiError(
      'permission-denied',
      `not authorized: ${method} needs one of [${rolesFor(method).join(', ')}], caller has [${[...caller.roles].join(', ')}]`,
    );
}
