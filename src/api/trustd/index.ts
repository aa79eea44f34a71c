// trustd's server: the Certificate RPC that signs a worker's apid CSR with the OS CA, authenticated by the
// machine token. It runs on control planes beside the API; its client is src/trustd.
export { type SignedCSR, signWorkerCSR, type TrustdRoot } from './certificate.js';
export {
  DEFAULT_TRUSTD_ADDRESS,
  type StartTrustdServerOptions,
  startTrustdServer,
  type TrustdServer,
} from './server.js';
