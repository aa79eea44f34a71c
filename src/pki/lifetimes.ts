// Certificate lifetimes from upstream (siderolabs/crypto, Talos constants), in milliseconds.
// Controllers re-issue at half of each, which is how often upstream's refresh tickers fire.

const HOUR = 3_600_000;

/** CAs: 87600 h (10 years), never rotated automatically (rotation goes through accepted CAs). */
export const CA_VALIDITY_MS = 87_600 * HOUR;
/** apid and trustd certificates: 24 h (DefaultCertificateValidityDuration), refreshed every 12 h. */
export const DEFAULT_CERTIFICATE_VALIDITY_MS = 24 * HOUR;
/** etcd server, peer and client certificates: 87600 h. */
export const ETCD_CERTIFICATE_VALIDITY_MS = 87_600 * HOUR;
/** Kubernetes control-plane certificates and kubeconfigs: 1 year, refreshed every 6 months. */
export const KUBERNETES_CERTIFICATE_VALIDITY_MS = 365 * 24 * HOUR;
/** Talos API client certificates (talosconfig): 1 year (TalosAPIDefaultCertificateValidityDuration). */
export const TALOS_API_CLIENT_VALIDITY_MS = 365 * 24 * HOUR;
/** kubeconfig client certificates start this far in the past to absorb clock skew between nodes. */
export const KUBECONFIG_ALLOWED_TIME_SKEW_MS = 10_000;
