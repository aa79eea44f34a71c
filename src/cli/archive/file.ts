// One named regular file out of a tar.gz the node sent (the Kubeconfig RPC's archive), as talosctl's
// ExtractFileFromTarGz finds it.
import { gunzipSync } from 'node:zlib';
import { ArchiveError, readTar } from './untar.js';

/** fileFromTarGz returns the body of the entry `name`; a directory, a link or no such entry is an ArchiveError. */
export function fileFromTarGz(archive: Buffer, name: string): Buffer {
  const entry = readTar(gunzipSync(archive)).find((e) => e.path.replace(/^\.\//, '') === name);
  if (!entry) throw new ArchiveError(`couldn't find file ${name} in the archive`);
  if (entry.type !== 'file') throw new ArchiveError(`${name} is not a file`);
  return entry.body;
}
