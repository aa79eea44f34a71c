// apid's certificates come from ApiCertificates(secrets/api), minted by the secrets controllers from
// the applied config: wait for the first set, then follow every re-issue.
import { API, API_ID, SECRETS_NAMESPACE } from '../../../resources/secrets/index.js';
import type { NodeIdentity } from '../../api/server.js';
import type { Resource } from '../../cosi/resource/resource.js';
import type { State } from '../../cosi/state/state.js';

/** identityOf reads a complete identity; a destroyed resource (a tombstone, as a watch shows it) has none. */
const identityOf = (r: Resource): NodeIdentity | undefined => {
  if (!API.is(r)) return undefined;
  const spec = r.spec;
  if (!spec?.server || spec.acceptedCAs.length === 0) return undefined;
  return {
    ca: spec.acceptedCAs.map((c) => c.crt).join('\n'),
    server: spec.server,
    ...(spec.client ? { client: spec.client } : {}),
  };
};

/** waitForIdentity resolves with the first complete API identity. */
export async function waitForIdentity(state: State, signal: AbortSignal): Promise<NodeIdentity> {
  const r = await state.watchFor(API.pointer(API_ID, SECRETS_NAMESPACE), {
    signal,
    condition: (res) => identityOf(res) !== undefined,
  });
  return identityOf(r)!;
}

/** followIdentity calls `onChange` for every later server certificate until the signal aborts. */
export async function followIdentity(
  state: State,
  signal: AbortSignal,
  current: NodeIdentity,
  onChange: (id: NodeIdentity) => void,
): Promise<void> {
  let last = current.server.crt;
  const stream = await state.watch(API.pointer(API_ID, SECRETS_NAMESPACE), { signal });
  try {
    for await (const ev of stream) {
      if (ev.type !== 'created' && ev.type !== 'updated') continue;
      const id = identityOf(ev.resource);
      if (!id || id.server.crt === last) continue;
      last = id.server.crt;
      onChange(id);
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  } finally {
    stream.close();
  }
}
