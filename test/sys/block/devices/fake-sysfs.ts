// A sysfs tree of files and links in a temp dir, laid out as the kernel lays out /sys/devices,
// /sys/class/block and /sys/dev/block, for the pure reading tests.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export interface FakeDevice {
  /** `/devices/...`, the kernel's devpath */
  readonly devpath: string;
  /** attribute files relative to the device's directory (`queue/rotational`) and their text */
  readonly files: Readonly<Record<string, string>>;
  /** devpaths of the devices stacked on this one, and of those it is stacked on */
  readonly holders?: readonly string[];
  readonly slaves?: readonly string[];
}

const nameOf = (devpath: string) => devpath.slice(devpath.lastIndexOf('/') + 1);

function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(relative(dirname(at), target), at);
}

/** fakeSysfs writes the devices under `root` and links them into class/block and dev/block. */
export function fakeSysfs(root: string, devices: readonly FakeDevice[]): void {
  for (const d of devices) {
    const dir = join(root, d.devpath);
    mkdirSync(dir, { recursive: true });
    for (const [rel, text] of Object.entries(d.files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    mkdirSync(join(dir, 'holders'), { recursive: true });
    mkdirSync(join(dir, 'slaves'), { recursive: true });
  }
  for (const d of devices) {
    const dir = join(root, d.devpath);
    link(dir, join(root, 'class', 'block', nameOf(d.devpath)));
    const dev = d.files.dev?.trim();
    if (dev) link(dir, join(root, 'dev', 'block', dev));
    for (const h of d.holders ?? []) link(join(root, h), join(dir, 'holders', nameOf(h)));
    for (const s of d.slaves ?? []) link(join(root, s), join(dir, 'slaves', nameOf(s)));
  }
}

/** queue is a disk's queue directory as a virtio or loop disk shows it. */
export const queue = (logical = 512, physical = logical, rotational = 0): Record<string, string> => ({
  'queue/logical_block_size': `${logical}\n`,
  'queue/physical_block_size': `${physical}\n`,
  'queue/minimum_io_size': `${physical}\n`,
  'queue/optimal_io_size': '0\n',
  'queue/rotational': `${rotational}\n`,
});
