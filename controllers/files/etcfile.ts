// files.EtcFileController: each EtcFileSpec → the file of that name in the managed etc directory,
// written atomically (the image's /etc/hosts and /etc/resolv.conf are symlinks into it, so readers and
// services started later see a whole new file at once) → EtcFileStatus naming the spec version written.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { EtcFileSpec, EtcFileStatus, FILES_NAMESPACE } from '../../resources/files/index.js';
import { defineController, input, output } from '../../src/cosi/controller/index.js';
import { versionString } from '../../src/cosi/resource/version.js';
import { writeFileAtomicIfChanged } from '../../src/sys/fs/atomic-write.js';

const NAME = 'files.EtcFileController';

/** The directory the image's /etc links point into. */
export const MANAGED_ETC_DIR = '/system/etc';

export interface EtcFileOptions {
  /** where the files are written (default MANAGED_ETC_DIR) */
  readonly dir?: string;
}

/** A spec id names a file directly inside the directory, nothing else. */
const safeName = (id: string) =>
  id !== '' && id !== '.' && id !== '..' && !id.includes('/') && !id.includes('\0');

export function etcFileController(opts: EtcFileOptions = {}) {
  const dir = opts.dir ?? MANAGED_ETC_DIR;
  return defineController({
    name: NAME,
    inputs: [input(EtcFileSpec, { namespace: FILES_NAMESPACE, kind: 'strong' })],
    outputs: [output(EtcFileStatus, 'exclusive')],
    async run(rt, { signal, logger }) {
      for await (const _ of rt.events(signal)) {
        rt.startTrackingOutputs();
        for (const spec of await rt.list(EtcFileSpec, { signal })) {
          const id = spec.metadata.id;
          if (!safeName(id)) {
            logger.error(`etc file ${JSON.stringify(id)}: not a plain file name, not written`);
            continue;
          }
          const path = join(dir, id);
          if (spec.metadata.phase === 'tearingDown') {
            rmSync(path, { force: true });
            await rt.removeFinalizer(spec.metadata, NAME, { signal });
            continue;
          }
          if (!spec.metadata.finalizers.has(NAME)) await rt.addFinalizer(spec.metadata, NAME, { signal });
          writeFileAtomicIfChanged(path, spec.spec.contents, {
            mode: spec.spec.mode || 0o644,
            dirMode: 0o755,
          });
          const specVersion = versionString(spec.metadata.version);
          await rt.modify(EtcFileStatus, id, () => ({ specVersion }), { signal });
        }
        await rt.cleanupOutputs(EtcFileStatus);
      }
    },
  });
}
