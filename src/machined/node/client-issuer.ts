// GenerateClientConfiguration's issuer: client certificates from the OS CA of the active config (only
// control plane configs carry its key).

import { ApiError } from '../../api/errors.js';
import type { ClientIssuer } from '../../api/machine-stateful/index.js';
import { type Config, v1alpha1Of } from '../../config/index.js';
import { mintTalosAPIClientCertificate } from '../../pki/index.js';

const pem = (b64: string | undefined) => (b64 ? Buffer.from(b64, 'base64').toString('utf8') : undefined);

const osCA = (cfg: Config | undefined) => {
  const ca = cfg ? v1alpha1Of(cfg)?.machine?.ca : undefined;
  return { crt: pem(ca?.crt), key: pem(ca?.key) };
};

export function clientIssuer(
  host: { active(): Config | undefined },
  endpoints: () => string[],
): ClientIssuer {
  return {
    contextName: 'keel',
    get endpoints() {
      return endpoints();
    },
    caCrt: () => osCA(host.active()).crt,
    async issue(roles, ttlMs) {
      const { crt, key } = osCA(host.active());
      if (!crt || !key)
        throw new ApiError(
          'unavailable',
          'this node holds no OS CA key (a worker): it cannot mint client certificates',
        );
      return mintTalosAPIClientCertificate({ crt, key }, { roles: [...roles], validityMs: ttlMs });
    },
  };
}
