// k8s.ManifestController: the bootstrap Manifests (controlplane) from BootstrapManifestsConfig and the
// Kubernetes root secrets, as upstream's: one resource per manifest id, the ones no longer rendered
// destroyed, and all of them gone while either input is missing. Applying them is another controller's.
import {
  BOOTSTRAP_MANIFESTS_CONFIG_ID,
  BootstrapManifestsConfig,
  Manifest,
} from '../../resources/k8s/index.js';
import { KUBERNETES_ROOT_ID, KubernetesRoot } from '../../resources/secrets/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { renderBootstrapManifests } from './internal/manifests/render.js';

export const ManifestController = defineController({
  name: 'k8s.ManifestController',
  inputs: [
    input(BootstrapManifestsConfig, { id: BOOTSTRAP_MANIFESTS_CONFIG_ID }),
    input(KubernetesRoot, { id: KUBERNETES_ROOT_ID }),
  ],
  // shared, as upstream's: the extra manifests land in the same type
  outputs: [output(Manifest, 'shared')],
  async run(rt, { signal }) {
    for await (const _ of rt.events(signal)) {
      const cfg = await rt.getOrNull(BootstrapManifestsConfig, BOOTSTRAP_MANIFESTS_CONFIG_ID, { signal });
      const root = await rt.getOrNull(KubernetesRoot, KUBERNETES_ROOT_ID, { signal });
      // rendered before anything is written: a refused config (a pod security policy) changes nothing
      const rendered = cfg && root ? renderBootstrapManifests(cfg.spec, root.spec) : [];
      rt.startTrackingOutputs();
      for (const m of rendered) await rt.modify(Manifest, m.id, () => ({ items: m.objects }), { signal });
      await rt.cleanupOutputs(Manifest);
      rt.resetBackoff();
    }
  },
});
