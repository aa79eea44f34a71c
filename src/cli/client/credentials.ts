// TLS credentials for the API: mutual TLS from a talosconfig context, or --insecure for maintenance mode.
import { type ChannelCredentials, credentials } from '@grpc/grpc-js';
import type { TalosconfigContext } from '../../config/generate/talosconfig.js';
import { standardKeyLabel } from '../../pki/index.js';
import { checkNamed } from '../../pki/server-name.js';
import { ClientError } from './errors.js';

const fromBase64 = (field: string, value: string | undefined, context: string): string => {
  if (!value) throw new ClientError('config', `context ${JSON.stringify(context)} has no ${field}`);
  return Buffer.from(value, 'base64').toString('utf8');
};

/**
 * mutualTLS trusts the context's CA and presents its client certificate. Ed25519 keys arrive labelled
 * "ED25519 PRIVATE KEY", which OpenSSL refuses, so the label is made the standard one first.
 */
export function mutualTLS(ctx: TalosconfigContext, name: string): ChannelCredentials {
  const ca = fromBase64('ca', ctx.ca, name);
  const crt = fromBase64('crt', ctx.crt, name);
  const key = standardKeyLabel(fromBase64('key', ctx.key, name));
  return credentials.createSsl(Buffer.from(ca), Buffer.from(key), Buffer.from(crt), {
    checkServerIdentity: checkNamed,
  });
}

/** insecureTLS encrypts without verifying the server and without a client certificate (maintenance mode). */
export const insecureTLS = (): ChannelCredentials =>
  credentials.createSsl(null, null, null, {
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
  });
