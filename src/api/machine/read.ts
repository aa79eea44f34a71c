// MachineService.Read: a regular file's bytes as a stream of common.Data chunks.

import { normalize } from 'node:path';
import { readChunks } from '../../sys/fs/read-chunks.js';
import { type Handler, serverStreamHandler } from '../handlers.js';
import type { SystemInfoDeps } from './deps.js';
import { invalidArgument, mapped } from './errors.js';

export function readHandler(deps: Pick<SystemInfoDeps, 'nodeFiles'> = {}): Handler {
  return serverStreamHandler(async (req, send, ctx) => {
    const path = typeof req.path === 'string' ? req.path : '';
    if (path === '') throw invalidArgument('Read', 'path', 'is empty');
    const own = deps.nodeFiles?.get(normalize(path));
    if (own) {
      await send({ bytes: Buffer.from(own()) });
      return;
    }
    await mapped('Read', async () => {
      for await (const chunk of readChunks(path, { signal: ctx.signal })) await send({ bytes: chunk });
    });
  });
}
