// Removing a controller's outputs when their inputs disappear (machine config unloaded, role changed).
import type { ControllerRuntime } from '../../../src/cosi/controller/index.js';
import type { ResourceType } from '../../../src/cosi/resource/typed.js';

/** destroyOwned destroys the resources of `type` this controller owns (the state stamps the owner). */
export async function destroyOwned<S>(
  rt: ControllerRuntime,
  type: ResourceType<S>,
  owner: string,
  signal: AbortSignal,
): Promise<void> {
  for (const r of await rt.list(type, { signal }))
    if (r.metadata.owner === owner) await rt.destroy(r.metadata, { signal });
}
