// Container mode: the components layer is a directory the node was given (`--components`), laid out as
// the layer (`usr/bin/etcd` …), published as the ComponentsLayer a node gets from its boot medium.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMPONENTS_LAYER_ID, ComponentsLayer, RUNTIME_NAMESPACE } from '../../../resources/runtime/index.js';
import type { State } from '../../cosi/state/state.js';

export async function publishComponentsDir(
  state: State,
  root: string,
  log: (l: string) => void,
): Promise<void> {
  if (!existsSync(root)) {
    log(`components: ${root} does not exist; no component (etcd …) runs here`);
    return;
  }
  const packages = join(root, 'usr/share/keel/packages.txt');
  await state.modify(
    ComponentsLayer.new(RUNTIME_NAMESPACE, COMPONENTS_LAYER_ID),
    (r) => {
      r.spec = { root, source: root, packages: existsSync(packages) ? readFileSync(packages, 'utf8') : '' };
    },
    { owner: 'container.ComponentsDir' },
  );
}
