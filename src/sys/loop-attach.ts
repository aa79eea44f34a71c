// attachLoop binds a file to a free loop device, read-only and cleared automatically once its last user
// lets it go: the way a squashfs file on a medium becomes a block device to mount. The caller mounts the
// device, then releases its own hold; from then on the mount alone keeps it.
import { closeSync, openSync } from 'node:fs';
import { LO_FLAGS, loopConfigure, loopGetFree } from './ioctl-loop.js';

export interface AttachedLoop {
  readonly device: string;
  /** closes this process's descriptor (with AUTOCLEAR the device goes once nothing else holds it) */
  release(): void;
}

export function attachLoop(file: string): AttachedLoop {
  const ctl = openSync('/dev/loop-control', 'r+');
  try {
    for (let tries = 0; ; tries++) {
      const device = `/dev/loop${loopGetFree(ctl)}`;
      const backing = openSync(file, 'r');
      const loop = openSync(device, 'r');
      try {
        loopConfigure(loop, {
          backingFd: backing,
          flags: LO_FLAGS.READ_ONLY | LO_FLAGS.AUTOCLEAR,
          fileName: file,
        });
        return { device, release: () => closeSync(loop) };
      } catch (e) {
        closeSync(loop);
        // another attacher took this device between the two calls: ask again, a few times
        if (tries >= 3 || (e as { code?: string }).code !== 'EBUSY') throw e;
      } finally {
        closeSync(backing);
      }
    }
  } finally {
    closeSync(ctl);
  }
}
