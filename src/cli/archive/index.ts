// Archives the node sends (the Copy RPC's tar.gz): reading and extracting them safely.
// Used by `keelctl cp`.
export { ArchiveError, type Entry, extractTar, readTar } from './untar.js';
