// Destroy controller: finishes the user side of teardown-and-destroy by destroying user-owned
// resources once they are tearing down with no finalizers left.
import type { Namespace } from '../../resource/kind.js';
import type { ResourceType } from '../../resource/typed.js';
import { input, output } from '../controller.js';
import { defineQController, type QController } from '../qcontroller.js';

export interface DestroySettings {
  readonly namespace?: Namespace;
  readonly concurrency?: number;
}

/** destroyController is the QController `Destroy[<type>]` for one resource type. */
export function destroyController<S>(type: ResourceType<S>, s: DestroySettings = {}): QController {
  const ns = s.namespace ?? type.defaultNamespace;
  return defineQController({
    name: `Destroy[${type.type}]`,
    inputs: [input(type, { namespace: ns, kind: 'q-primary' })],
    outputs: [output(type, 'shared')],
    ...(s.concurrency !== undefined ? { concurrency: s.concurrency } : {}),
    async reconcile(rt, ptr, ctx) {
      const r = await rt.getOrNull(type, ptr.id, { namespace: ptr.namespace });
      // only user-owned resources that finished tearing down: owners destroy their own
      if (r?.metadata.phase !== 'tearingDown' || r.metadata.owner !== '' || !r.metadata.finalizers.empty())
        return;
      ctx.logger.info('destroy the resource without finalizers', { id: ptr.id });
      await rt.destroy(r.metadata, { owner: '' });
    },
  });
}
