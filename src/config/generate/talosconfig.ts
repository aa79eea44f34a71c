// The client config talosctl reads (`talosconfig`): contexts of endpoints and an admin certificate.
import { decodeSingle } from '../decoder/single.js';
import { ordered } from '../encoder.js';
import { list, map, str, struct } from '../types/schema.js';
import { emitDocument } from '../yaml-emit.js';

export interface TalosconfigContext {
  endpoints: string[];
  nodes?: string[];
  /** base64 PEM of the OS CA certificate, and of the client certificate and key */
  ca: string;
  crt: string;
  key: string;
}
export interface Talosconfig {
  context: string;
  contexts: Record<string, TalosconfigContext>;
}

const contextSchema = struct({ endpoints: list(str), nodes: list(str), ca: str, crt: str, key: str });
export const talosconfigSchema = struct({ context: str, contexts: map(contextSchema) });

export interface TalosconfigInput {
  readonly clusterName: string;
  /** base64 PEM, as stored in the secrets bundle */
  readonly osCACrt: string;
  /** the admin client certificate and key, base64 PEM */
  readonly admin: { readonly crt: string; readonly key: string };
  readonly endpoints?: readonly string[];
}

/**
 * newTalosconfig makes a one-context talosconfig. Endpoints default to none, as talosctl v1.13.0's
 * `gen config` writes them (`endpoints: []`; releases before wrote 127.0.0.1): the client config names them.
 */
export const newTalosconfig = (t: TalosconfigInput): Talosconfig => ({
  context: t.clusterName,
  contexts: {
    [t.clusterName]: {
      endpoints: [...(t.endpoints ?? [])],
      ca: t.osCACrt,
      crt: t.admin.crt,
      key: t.admin.key,
    },
  },
});

export const encodeTalosconfig = (t: Talosconfig): string =>
  emitDocument(ordered(t, talosconfigSchema) as Record<string, unknown>);

export const decodeTalosconfig = (source: string): Talosconfig =>
  decodeSingle(source, talosconfigSchema, 'talosconfig').value as Talosconfig;
