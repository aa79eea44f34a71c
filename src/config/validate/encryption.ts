// Rules for LUKS2 encryption settings, shared by systemDiskEncryption and the volume documents.
import type { RuleContext } from './context.js';

interface Key {
  slot?: number;
  static?: { passphrase?: string };
  nodeID?: unknown;
  kms?: { endpoint?: string };
  tpm?: unknown;
}
interface Encryption {
  provider?: string;
  keys?: Key[];
}

/** validateEncryption checks provider, that keys exist, one method per key and unique slots. */
export function validateEncryption(e: Encryption, at: string, ctx: RuleContext): void {
  if (e.provider !== 'luks2')
    ctx.error(`${at}.provider`, `unsupported encryption provider ${JSON.stringify(e.provider ?? '')}`);
  if (!e.keys?.length) {
    ctx.error(`${at}.keys`, 'no encryption keys provided');
    return;
  }
  const slots = new Set<number>();
  e.keys.forEach((k, i) => {
    const p = `${at}.keys[${i}]`;
    const methods = [k.static, k.nodeID, k.kms, k.tpm].filter((m) => m !== undefined).length;
    if (methods !== 1)
      ctx.error(
        p,
        methods === 0
          ? `encryption key at slot ${k.slot ?? 0} doesn't have the configuration parameters`
          : 'exactly one of static, nodeID, kms or tpm must be set',
      );
    if (k.static && !k.static.passphrase) ctx.error(`${p}.static.passphrase`, 'passphrase must not be empty');
    if (k.kms && !k.kms.endpoint) ctx.error(`${p}.kms.endpoint`, 'KMS endpoint must be set');
    const slot = k.slot ?? 0;
    if (slot < 0 || slot > 31) ctx.error(`${p}.slot`, `key slot ${slot} is out of range 0-31`);
    if (slots.has(slot)) ctx.error(`${p}.slot`, `encryption key slot ${slot} is already in use`);
    slots.add(slot);
  });
}
