// The controllers a node runs, loaded on demand: their modules are evaluated only when the controllers
// start (once the maintenance API listens, or before a stored config is activated). Evaluated with the
// rest of machined, they cost about 0.1 s of every boot under TCG before the API could listen.
import type { Controller } from '../../cosi/controller/index.js';
import type { EventBus } from '../events/index.js';

/** loadControllers evaluates the controllers' modules (once) and makes the controllers a node registers. */
export async function loadControllers(events: EventBus): Promise<Controller[]> {
  const [{ CONFIG_CONTROLLERS }, { secretsControllers }, { serviceController }] = await Promise.all([
    import('../../../controllers/config/index.js'),
    import('../../../controllers/secrets/index.js'),
    import('../../../controllers/v1alpha1/service.js'),
  ]);
  return [...CONFIG_CONTROLLERS, ...secretsControllers(), serviceController(events)];
}
