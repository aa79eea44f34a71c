// secrets.MaintenanceRootController: MaintenanceRootSecrets(secrets/maintenance), a CA minted once
// per boot for the maintenance-mode API.
import { MAINTENANCE_ROOT_ID, MaintenanceRoot } from '../../resources/secrets/index.js';
import { type Controller, defineController, output } from '../../src/cosi/controller/index.js';
import { newCertificateAuthority } from '../../src/pki/index.js';
import { type SecretsControllerOptions, systemSecretsClock } from './internal/clock.js';

/** newMaintenanceRootController mints the CA on its first run and then finishes: it never changes. */
export function newMaintenanceRootController({
  clock = systemSecretsClock,
}: SecretsControllerOptions = {}): Controller {
  return defineController({
    name: 'secrets.MaintenanceRootController',
    outputs: [output(MaintenanceRoot, 'exclusive')],
    async run(rt, { signal }) {
      for await (const _ of rt.events(signal)) {
        await rt.modify(
          MaintenanceRoot,
          MAINTENANCE_ROOT_ID,
          async (spec) => {
            // a restart of the controller must not replace a CA clients may already trust
            if (spec.ca) return;
            spec.ca = await newCertificateAuthority({ organizations: ['talos'], now: clock.now(), signal });
          },
          { signal },
        );
        return;
      }
    },
  });
}

/** MaintenanceRootController runs on wall time. */
export const MaintenanceRootController = newMaintenanceRootController();
