// MachineService.List: FileInfo for a path and, on request, the tree below it, as upstream's walker lists it.

import { goFileMode } from '../../sys/fs/file-mode.js';
import { normalizeRoot, type WalkEntry, type WalkType, walk } from '../../sys/fs/walk.js';
import { ApiError } from '../errors.js';
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

/** listPlan validates a ListRequest: recursion only with `recurse`, where depth 0 means no limit. */
export function listPlan(req: ApiMessage): ListPlan {
  const depth = typeof req.recursion_depth === 'number' ? req.recursion_depth : 0;
  if (depth < 0) throw invalidArgument('List', 'recursion_depth', `must not be negative, got ${depth}`);
  const types = ((req.types as unknown[] | undefined) ?? []).map((t) => {
    const w = LIST_TYPES[String(t)];
    if (!w) throw invalidArgument('List', 'types', `unknown type ${String(t)}`);
    return w;
  });
  return {
    root: normalizeRoot(typeof req.root === 'string' ? req.root : ''),
    maxDepth: req.recurse === true ? (depth === 0 ? -1 : depth) : 0,
    types,
  };
}

/** fileInfoMessage is one FileInfo; an entry that could not be read carries only its names and the error. */
export function fileInfoMessage(e: WalkEntry): ApiMessage {
  if (e.error || !e.stat)
    return { name: e.fullPath, relative_name: e.relPath, error: e.error?.message ?? '' };
  return {
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
    // extended attributes need listxattr(2), which no binding offers yet: refuse rather than send none
    if (req.report_xattrs === true)
      throw new ApiError('unimplemented', 'List: report_xattrs is not supported by Keel yet');
    const plan = listPlan(req);
    await mapped('List', async () => {
      const entries = walk(plan.root, { maxDepth: plan.maxDepth, types: plan.types, signal: ctx.signal });
      for await (const e of entries) await send(fileInfoMessage(e));
    });
  });
}
