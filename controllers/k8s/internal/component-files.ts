// Writing a control plane component's files into its directory: each atomically, read-only for its owner
// (the component's user on a node, as upstream's; the node's own user in container mode, whose uids are
// its host's), a file whose contents are already there left alone.
import { join } from 'node:path';
import { writeFileAtomicIfChanged } from '../../../src/sys/fs/atomic-write.js';
import { type ControlPlaneComponent, RUN_AS } from '../static-pod-paths.js';

export interface ComponentFilesTarget {
  /** the directory the component's own directory is made in */
  readonly base: string;
  /** chown to the component's user (a node), or keep the writer's (container mode) */
  readonly owned: boolean;
}

/** writeComponentFiles writes `files` under base/component; it returns the names it (re)wrote. */
export function writeComponentFiles(
  target: ComponentFilesTarget,
  component: ControlPlaneComponent,
  files: ReadonlyMap<string, string>,
): string[] {
  const dir = join(target.base, component);
  const id = RUN_AS[component];
  const written: string[] = [];
  for (const [name, contents] of files) {
    const path = join(dir, name);
    const wrote = writeFileAtomicIfChanged(path, contents, {
      mode: 0o400,
      dirMode: 0o755,
      ...(target.owned ? { owner: { uid: id, gid: id } } : {}),
    });
    if (wrote) written.push(name);
  }
  return written;
}
