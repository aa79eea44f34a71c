// Readiness at the running stage, as MachineStatus.status: the conditions this node can judge today
// (its services); time and network join when their controllers exist.
import type { UnmetCondition } from '../../../resources/runtime/index.js';
import type { ServiceInfo } from '../services/index.js';

/** A service that finished or was skipped on purpose is not a reason to be unready. */
const SETTLED: ReadonlySet<string> = new Set(['Finished', 'Skipped']);

/** serviceConditions names the services that are neither up nor settled, as one unmet condition. */
export function serviceConditions(services: readonly ServiceInfo[]): UnmetCondition[] {
  const down = services.filter((s) => !s.up && !SETTLED.has(s.state)).map((s) => s.id);
  return down.length === 0 ? [] : [{ name: 'services', reason: `services not healthy: ${down.join(', ')}` }];
}
