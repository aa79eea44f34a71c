// The node's META follows the META volume: once the volume manager finds it Ready the META host attaches
// the partition (values set before then are merged onto it); a node with no META partition (a live boot
// from the ISO) keeps its values in memory. Either way META counts as loaded once that is known.
import { BLOCK_NAMESPACE, VolumePhase, VolumeStatus } from '../../../resources/block/index.js';
import type { State } from '../../cosi/state/state.js';
import type { MetaHost } from './meta-host.js';

export const META_VOLUME_ID = 'META';

/** followMetaVolume attaches META each time the volume becomes Ready at a new location. */
export async function followMetaVolume(
  state: State,
  meta: MetaHost,
  log: (line: string) => void,
  signal: AbortSignal,
): Promise<void> {
  let loaded = false;
  const markLoaded = async () => {
    if (loaded) return;
    loaded = true;
    await meta.loaded();
  };
  try {
    for await (const ev of await state.watch(VolumeStatus.pointer(META_VOLUME_ID, BLOCK_NAMESPACE), {
      signal,
    })) {
      if (ev.type !== 'created' && ev.type !== 'updated') continue;
      const st = (ev.resource as VolumeStatus).spec;
      if (st.phase === VolumePhase.Ready && st.location && st.location !== meta.path) {
        try {
          await meta.attach(st.location, { signal });
        } catch (e) {
          log(`META: cannot read ${st.location}: ${(e as Error).message}`);
          continue;
        }
        await markLoaded();
      } else if (st.phase === VolumePhase.Missing) {
        await markLoaded();
      }
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  }
}
