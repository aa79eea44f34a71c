// MachineService.Copy: a gzip'd tar of a path, chunked into common.Data; entries that could not be archived
// are reported at the end in metadata.error, as upstream does.
import { isAbsolute, normalize } from 'node:path';
import { writeTarGz } from '../../sys/fs/tar-gz.js';
import { type Handler, serverStreamHandler } from '../handlers.js';
import { invalidArgument, mapped } from './errors.js';

/** copyRoot cleans the path (Go's filepath.Clean) and insists on an absolute one, as upstream. */
export function copyRoot(raw: unknown): string {
  const path = typeof raw === 'string' ? raw : '';
  if (path === '') throw invalidArgument('Copy', 'root_path', 'is empty');
  const clean = normalize(path).replace(/(.)\/+$/, '$1');
  if (!isAbsolute(clean)) throw invalidArgument('Copy', 'root_path', `path is not absolute ${clean}`);
  return clean;
}

export function copyHandler(): Handler {
  return serverStreamHandler(async (req, send, ctx) => {
    const root = copyRoot(req.root_path);
    const skipped = await mapped('Copy', () =>
      writeTarGz(root, (chunk) => send({ bytes: chunk }), { signal: ctx.signal }),
    );
    if (skipped.length > 0) await send({ metadata: { error: skipped.join('\n') } });
  });
}
