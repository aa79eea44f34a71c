// trustd's certificate comes from TrustdCertificates(secrets/trustd), minted on control planes by the
// secrets controllers: wait for the first, then follow every re-issue (upstream's trustd provider).
import {
  OS_ROOT_ID,
  OSRoot,
  SECRETS_NAMESPACE,
  TRUSTD_ID,
  Trustd,
} from '../../../resources/secrets/index.js';
import type { TrustdRoot } from '../../api/trustd/index.js';
import type { Resource } from '../../cosi/resource/resource.js';
import type { State } from '../../cosi/state/state.js';
import type { CertificateAndKey } from '../../pki/index.js';

/** serverOf reads the served pair; a destroyed resource (a tombstone, as a watch shows it) has none. */
const serverOf = (r: Resource): CertificateAndKey | undefined =>
  Trustd.is(r) ? (r.spec?.server ?? undefined) : undefined;

const pointer = Trustd.pointer(TRUSTD_ID, SECRETS_NAMESPACE);

/** waitForTrustdCertificate resolves with the first serving certificate. */
export async function waitForTrustdCertificate(
  state: State,
  signal: AbortSignal,
): Promise<CertificateAndKey> {
  const r = await state.watchFor(pointer, { signal, condition: (res) => serverOf(res) !== undefined });
  return serverOf(r)!;
}

/** followTrustdCertificate calls `onChange` for every later certificate until the signal aborts. */
export async function followTrustdCertificate(
  state: State,
  signal: AbortSignal,
  current: CertificateAndKey,
  onChange: (next: CertificateAndKey) => void,
): Promise<void> {
  let last = current.crt;
  const stream = await state.watch(pointer, { signal });
  try {
    for await (const ev of stream) {
      if (ev.type !== 'created' && ev.type !== 'updated') continue;
      const next = serverOf(ev.resource);
      if (!next || next.crt === last) continue;
      last = next.crt;
      onChange(next);
    }
  } catch (e) {
    if (!signal.aborted) throw e;
  } finally {
    stream.close();
  }
}

/** trustdRoot reads the OS root secrets as trustd needs them at a call. */
export async function trustdRoot(state: State): Promise<TrustdRoot> {
  const r = await state.get(OSRoot.pointer(OS_ROOT_ID, SECRETS_NAMESPACE));
  if (!OSRoot.is(r)) throw new Error('OSRootSecrets(secrets/os) has an unexpected type');
  return r.spec;
}
