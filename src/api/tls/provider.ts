// A grpc-js certificate provider fed from memory: pushing a new pair re-keys the listening server in place,
// so certificates rotate without a restart (new handshakes use the new pair, open connections keep theirs).
import type { experimental } from '@grpc/grpc-js';

type CaListener = experimental.CaCertificateUpdateListener;
type IdentityListener = experimental.IdentityCertificateUpdateListener;

export interface MemoryCertificateProvider extends experimental.CertificateProvider {
  /** setCa replaces the accepted client CAs (PEM, may hold several). */
  setCa(caPEM: string): void;
  /** setIdentity replaces the served certificate chain and key (PEM). */
  setIdentity(certPEM: string, keyPEM: string): void;
}

/** memoryCertificateProvider starts with nothing and replays the latest values to each new listener. */
export function memoryCertificateProvider(): MemoryCertificateProvider {
  const caListeners = new Set<CaListener>();
  const idListeners = new Set<IdentityListener>();
  let ca: experimental.CaCertificateUpdate | null = null;
  let identity: experimental.IdentityCertificateUpdate | null = null;
  return {
    addCaCertificateListener(l) {
      caListeners.add(l);
      // grpc-js registers its own watcher only after adding listeners: replay later, not now
      queueMicrotask(() => {
        if (ca && caListeners.has(l)) l(ca);
      });
    },
    removeCaCertificateListener(l) {
      caListeners.delete(l);
    },
    addIdentityCertificateListener(l) {
      idListeners.add(l);
      queueMicrotask(() => {
        if (identity && idListeners.has(l)) l(identity);
      });
    },
    removeIdentityCertificateListener(l) {
      idListeners.delete(l);
    },
    setCa(caPEM) {
      ca = { caCertificate: Buffer.from(caPEM) };
      for (const l of caListeners) l(ca);
    },
    setIdentity(certPEM, keyPEM) {
      identity = { certificate: Buffer.from(certPEM), privateKey: Buffer.from(keyPEM) };
      for (const l of idListeners) l(identity);
    },
  };
}
