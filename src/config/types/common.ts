// Shapes shared by several documents: base64 PEM pairs and volume encryption.
import { bool, int, list, type Schema, str, struct, unstructured } from './schema.js';

/** PEMEncodedCertificateAndKey: base64 of PEM blocks, as upstream's x509 package stores them. */
export interface CertAndKey {
  crt?: string;
  key?: string;
}
export const certAndKey = struct({ crt: str, key: str });
export const certOnly = struct({ crt: str });
export const keyOnly = struct({ key: str });

export interface EncryptionKey {
  slot?: number;
  static?: { passphrase?: string };
  nodeID?: Record<string, never>;
  kms?: { endpoint?: string };
  tpm?: Record<string, unknown>;
  lockToState?: boolean;
}
export interface EncryptionSpec {
  provider?: string;
  keys?: EncryptionKey[];
  cipher?: string;
  keySize?: number;
  blockSize?: number;
  options?: string[];
}

/** VolumeConfig/UserVolumeConfig encryption (block documents). */
export const encryptionKey: Schema = struct({
  slot: int,
  static: struct({ passphrase: str }),
  nodeID: struct({}),
  kms: struct({ endpoint: str }),
  tpm: unstructured,
  lockToState: bool,
});
export const encryption = struct({
  provider: str,
  keys: list(encryptionKey),
  cipher: str,
  keySize: int,
  blockSize: int,
  options: list(str),
});

export interface ProvisioningSpec {
  diskSelector?: { match?: string };
  grow?: boolean;
  minSize?: string;
  maxSize?: string;
}
export const provisioning = struct({
  diskSelector: struct({ match: str }),
  grow: bool,
  minSize: str,
  maxSize: str,
});
