// Container mode's layers: a directory published as the ComponentsLayer a node would mount (`--components`,
// `--kubernetes`), on a real in-memory state.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ComponentsLayer, KUBERNETES_LAYER_ID, RUNTIME_NAMESPACE } from '../../../resources/runtime/index.js';
import { newInmemState } from '../../../src/cosi/state/inmem/index.js';
import { wrapCore } from '../../../src/cosi/state/wrap.js';
import { publishComponentsDir } from '../../../src/machined/node/components-dir.js';

const PACKAGES = 'kubernetes v1.34.4 go=go1.26 modules=k8s.io/kubernetes /usr/bin/kubelet=abc\n';

function scratch(): string {
  const d = mkdtempSync(join(tmpdir(), 'keel-layer-dir-'));
  onTestFinished(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

describe('publishComponentsDir', () => {
  it("publishes a directory as Kubernetes' layer, with its packages.txt", async () => {
    const root = scratch();
    mkdirSync(join(root, 'usr/share/keel'), { recursive: true });
    writeFileSync(join(root, 'usr/share/keel/packages.txt'), PACKAGES);
    const state = wrapCore(newInmemState());
    await publishComponentsDir(state, KUBERNETES_LAYER_ID, root, () => {});
    const r = (await state.get(ComponentsLayer.pointer(KUBERNETES_LAYER_ID))) as ComponentsLayer;
    expect(r.spec).toEqual({ root, source: root, packages: PACKAGES });
  });

  it('publishes nothing for a directory that is not there, and says so', async () => {
    const state = wrapCore(newInmemState());
    const lines: string[] = [];
    await publishComponentsDir(state, KUBERNETES_LAYER_ID, join(scratch(), 'absent'), (l) => lines.push(l));
    expect(await state.list({ namespace: RUNTIME_NAMESPACE, type: ComponentsLayer.type })).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/^kubernetes: .*absent does not exist/)]);
  });
});
