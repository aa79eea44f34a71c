// Archives the node sends (the Copy and Kubeconfig RPCs' tar.gz): reading and extracting them safely.
// Used by `keelctl cp` and `keelctl kubeconfig`.
export { fileFromTarGz } from './file.js';
export { ArchiveError, type Entry, extractTar, readTar } from './untar.js';
