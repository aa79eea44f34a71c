// MachineService.List: FileInfo for a path and, on request, the tree below it, as upstream's walker lists it.

import { goFileMode } from '../../sys/fs/file-mode.js';
import { normalizeRoot, type WalkEntry, type WalkType, walk } from '../../sys/fs/walk.js';
import { type ApiMessage, type Handler, serverStreamHandler } from '../handlers.js';
import { invalidArgument, mapped } from './errors.js';

const LIST_TYPES: Readonly<Record<string, WalkType>> = {
  REGULAR: 'regular',
  DIRECTORY: 'directory',
  SYMLINK: 'symlink',
};

export interface ListPlan {
  readonly root: string;
  /** -1: no limit; 0: the root's entries only */
  readonly maxDepth: number;
  readonly types: readonly WalkType[];
}

/**
 * listPlan validates a ListRequest: recursion only with `recurse`, where a depth of 0 or below means no limit
 * (`talosctl ls -r` sends -1).
 */
export function listPlan(req: ApiMessage): ListPlan {
  const depth = typeof req.recursion_depth === 'number' ? req.recursion_depth : 0;
  const types = ((req.types as unknown[] | undefined) ?? []).map((t) => {
    const w = LIST_TYPES[String(t)];
    if (!w) throw invalidArgument('List', 'types', `unknown type ${String(t)}`);
    return w;
  });
  return {
    root: normalizeRoot(typeof req.root === 'string' ? req.root : ''),
    maxDepth: req.recurse === true ? (depth <= 0 ? -1 : depth) : 0,
    types,
  };
}

/** XattrReader lists a path's extended attributes (src/sys's listXattrs, loaded only when asked for). */
export type XattrReader = (path: string) => readonly { name: string; data: Buffer }[];

const SELINUX_XATTR = 'security.selinux';

/**
 * xattrsOf is what FileInfo.xattrs carries: every readable attribute, and the SELinux label even where the
 * file system lists none (devtmpfs, sysfs give their automatic label only when asked by name), as upstream.
 */
export function xattrsOf(
  path: string,
  list: XattrReader,
  get: (path: string, name: string) => Buffer | undefined,
): ApiMessage[] {
  const found = list(path).map((x) => ({ name: x.name, data: x.data }));
  if (!found.some((x) => x.name === SELINUX_XATTR)) {
    const label = get(path, SELINUX_XATTR);
    if (label) found.push({ name: SELINUX_XATTR, data: label });
  }
  return found;
}

/** fileInfoMessage is one FileInfo; an entry that could not be read carries only its names and the error. */
export function fileInfoMessage(e: WalkEntry, xattrs: readonly ApiMessage[] = []): ApiMessage {
  if (e.error || !e.stat)
    return { name: e.fullPath, relative_name: e.relPath, error: e.error?.message ?? '', xattrs };
  return {
    xattrs,
    name: e.fullPath,
    relative_name: e.relPath,
    size: e.stat.size,
    mode: goFileMode(e.stat.mode),
    modified: Math.floor(e.stat.mtimeMs / 1000),
    is_dir: e.stat.isDirectory(),
    link: e.link,
    uid: e.stat.uid,
    gid: e.stat.gid,
  };
}

export function listHandler(): Handler {
  return serverStreamHandler(async (req, send, ctx) => {
    const plan = listPlan(req);
    // the system-call bindings load only for `ls -l`, which asks for extended attributes
    const sys = req.report_xattrs === true ? await import('../../sys/xattr.js') : undefined;
    await mapped('List', async () => {
      const entries = walk(plan.root, { maxDepth: plan.maxDepth, types: plan.types, signal: ctx.signal });
      for await (const e of entries)
        await send(fileInfoMessage(e, sys ? xattrsOf(e.fullPath, sys.listXattrs, sys.getxattr) : []));
    });
  });
}
