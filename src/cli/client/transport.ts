// Transport failures as talosctl users read them: grpc-js's "No connection established. Last error: Error:
// connect ECONNREFUSED 127.0.0.1:1 (…). Resolution note: " becomes "connection refused", and a refused
// certificate says which one and what to do.

/** How the client authenticates: mutual TLS from a talosconfig, or --insecure (maintenance mode). */
export type Auth = 'mutual' | 'insecure';

export type TransportFault =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'unreachable'
  | 'server-certificate'
  | 'client-certificate'
  | 'certificate'
  | 'other';

const NO_CONNECTION =
  /^No connection established\. Last error: (?:Error: )?(.*?)(?: \(\d{4}-\d\d-\d\dT[^)]*\))?\.?(?: Resolution note:.*)?$/s;

const FAULTS: readonly [RegExp, TransportFault, string][] = [
  [/ECONNREFUSED/, 'refused', 'connection refused'],
  [/ECONNRESET|EPIPE|socket hang up|socket disconnected/i, 'reset', 'connection reset by peer'],
  // grpc-js's word for a session that closed before HTTP/2 settings arrived: a TLS peer hanging up
  [/^Failed to connect$/, 'reset', 'connection closed during the handshake'],
  [/ETIMEDOUT/, 'timeout', 'connection timed out'],
  [/EHOSTUNREACH|ENETUNREACH/, 'unreachable', 'no route to host'],
  [
    /unable to verify the first certificate|self[- ]signed certificate|unable to get (?:local )?issuer certificate|certificate signature failure/i,
    'server-certificate',
    '',
  ],
  // TLS alerts the node sent: 116 certificate required, 42 bad certificate, 48 unknown CA
  [/alert certificate required/i, 'client-certificate', 'the node requires a client certificate'],
  [/alert (?:bad certificate|unknown ca)/i, 'client-certificate', 'the node refused the client certificate'],
  [/certificate|CERT_|Hostname\/IP does not match/i, 'certificate', ''],
];

/** readTransport classifies a status's details; undefined means it is not a failure to connect. */
export function readTransport(details: string): { fault: TransportFault; cause: string } | undefined {
  const m = NO_CONNECTION.exec(details.trim());
  if (!m) return undefined;
  const cause = m[1]!;
  for (const [re, fault, plain] of FAULTS) if (re.test(cause)) return { fault, cause: plain || cause };
  return { fault: 'other', cause };
}

/** The start of the server-certificate message: the tracker looks for it to tell maintenance mode apart. */
export const MTLS_REFUSED = 'mutual TLS refused';

/**
 * transportText is the desc of a failure to connect, with advice where the certificate is at fault;
 * anything else (including a node's own error) passes unchanged.
 */
export function transportText(details: string, auth?: Auth): string {
  const t = readTransport(details);
  if (!t) return details;
  switch (t.fault) {
    case 'server-certificate':
      return auth === 'insecure'
        ? `the node's certificate was refused: ${t.cause}`
        : `${MTLS_REFUSED}: the node's certificate is not signed by the talosconfig context's CA (${t.cause}): a node in maintenance mode takes --insecure, otherwise use this cluster's talosconfig`;
    case 'client-certificate':
      return auth === 'insecure'
        ? `${t.cause}, so it is not in maintenance mode: run without --insecure`
        : `${t.cause} of the talosconfig context (crt/key not signed by the node's CA): use this cluster's talosconfig`;
    case 'certificate':
      return `the node's certificate was refused: ${t.cause}`;
    case 'reset':
      // a TLS server that refuses the client's certificate (or its absence) just closes the connection
      if (auth === 'mutual')
        return `${t.cause}: the node may have refused the client certificate of the talosconfig context (crt/key not signed by the node's CA): use this cluster's talosconfig`;
      if (auth === 'insecure')
        return `${t.cause}: the node may require a client certificate, so it is not in maintenance mode: run without --insecure`;
      return t.cause;
    default:
      return t.cause;
  }
}
