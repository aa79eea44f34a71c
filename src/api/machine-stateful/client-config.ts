// MachineService.GenerateClientConfiguration: a client certificate with the requested roles from the OS CA,
// returned as talosconfig bytes.
import { encodeTalosconfig, newTalosconfig } from '../../config/index.js';
import { isKnownRole } from '../auth/roles.js';
import { ApiError } from '../errors.js';
import { type Handler, unaryHandler } from '../handlers.js';
import type { ClientIssuer } from './deps.js';

const DEFAULT_TTL_MS = 365 * 24 * 3600 * 1000;
const b64 = (s: string) => Buffer.from(s).toString('base64');

export const generateClientConfigurationHandler = (issuer: ClientIssuer): Handler =>
  unaryHandler(async (req) => {
    const roles = (req.roles as string[] | undefined) ?? [];
    if (roles.length === 0) throw new ApiError('invalid-argument', 'roles: at least one role is required');
    const unknown = roles.filter((r) => !isKnownRole(r));
    if (unknown.length > 0)
      throw new ApiError('invalid-argument', `roles: unknown role(s) ${unknown.join(', ')}`);
    const ca = issuer.caCrt();
    if (!ca)
      throw new ApiError('unavailable', 'the OS CA is not known yet: no machine configuration is applied');
    const ttl = req.crt_ttl as { seconds?: string; nanos?: number } | undefined;
    const ttlMs = ttl ? Number(ttl.seconds ?? 0) * 1000 + Math.floor((ttl.nanos ?? 0) / 1e6) : 0;
    const cert = await issuer.issue(roles, ttlMs > 0 ? ttlMs : DEFAULT_TTL_MS);
    const talosconfig = newTalosconfig({
      clusterName: issuer.contextName,
      osCACrt: b64(ca),
      admin: { crt: b64(cert.crt), key: b64(cert.key) },
      endpoints: issuer.endpoints,
    });
    return {
      messages: [
        {
          ca: Buffer.from(ca),
          crt: Buffer.from(cert.crt),
          key: Buffer.from(cert.key),
          talosconfig: Buffer.from(encodeTalosconfig(talosconfig)),
        },
      ],
    };
  });
