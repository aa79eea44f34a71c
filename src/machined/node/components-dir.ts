// Container mode: a layer is a directory the node was given (`--components`, `--kubernetes`), laid out as
// the layer (`usr/bin/etcd`, `usr/bin/kubelet` …), published as the ComponentsLayer a node gets from its
// boot medium.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ComponentsLayer, RUNTIME_NAMESPACE } from '../../../resources/runtime/index.js';
import type { State } from '../../cosi/state/state.js';

/** publishComponentsDir publishes `root` as the ComponentsLayer `id` (`components`, `kubernetes`). */
export async function publishComponentsDir(
  state: State,
  id: string,
  root: string,
  log: (l: string) => void,
): Promise<void> {
  if (!existsSync(root)) {
    log(`${id}: ${root} does not exist; nothing of the ${id} layer runs here`);
    return;
  }
  const packages = join(root, 'usr/share/keel/packages.txt');
  await state.modify(
    ComponentsLayer.new(RUNTIME_NAMESPACE, id),
    (r) => {
      r.spec = { root, source: root, packages: existsSync(packages) ? readFileSync(packages, 'utf8') : '' };
    },
    { owner: 'container.ComponentsDir' },
  );
}
