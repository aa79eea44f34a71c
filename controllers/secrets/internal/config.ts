// Reading secrets out of a machine config: its PEM is base64 encoded, and roots exist only for v1alpha1.

import { MACHINE_CONFIG_ID, MachineConfig } from '../../../resources/config/machine-config.js';
import type { CertificateAndKey, PEMCertificate } from '../../../resources/secrets/index.js';

const unb64 = (s: string | undefined): string => (s ? Buffer.from(s, 'base64').toString('utf8') : '');

/** pemPair decodes a config `{crt, key}`; a missing crt means no pair, a missing key an empty one. */
export const pemPair = (c: { crt?: string; key?: string } | undefined): CertificateAndKey | null =>
  c?.crt ? { crt: unb64(c.crt), key: unb64(c.key) } : null;

/** pemCerts decodes `acceptedCAs`-style lists, dropping entries without a certificate. */
export const pemCerts = (list: readonly { crt?: string }[] | undefined): PEMCertificate[] =>
  (list ?? []).filter((c) => c.crt).map((c) => ({ crt: unb64(c.crt) }));

/** pemKey decodes a config `{key}`. */
export const pemKey = (c: { key?: string } | undefined): { key: string } | null =>
  c?.key ? { key: unb64(c.key) } : null;

/** configRef names the active machine config in errors. */
export const configRef = MachineConfig.pointer(MACHINE_CONFIG_ID);
