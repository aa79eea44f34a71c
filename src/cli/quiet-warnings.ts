// Keeps one Node warning off the user's terminal: dialling an endpoint by IP address (as talosctl users do)
// makes the TLS layer warn that SNI cannot carry an IP. The certificate is still checked against the IP SANs.

const SNI_IP_WARNING = 'DEP0123';

/** quietSNIWarning drops DEP0123 and passes every other warning on unchanged. */
export function quietSNIWarning(): void {
  const emit = process.emitWarning.bind(process);
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const opts = rest[0];
    const code = typeof opts === 'object' && opts !== null ? (opts as { code?: string }).code : rest[1];
    if (code === SNI_IP_WARNING) return;
    (emit as (...a: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning;
}
