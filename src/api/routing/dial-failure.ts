// How a failure to reach another node reads in the reply: as upstream's apid (Go's gRPC) words it, which is
// what talosctl users know, instead of grpc-js's "No connection established. Last error: … Resolution note:".
import { InterceptingCall, type Interceptor } from '@grpc/grpc-js';

const NO_CONNECTION =
  /^No connection established\. Last error: (?:Error: )?(.*?)(?: \(\d{4}-\d\d-\d\dT[^)]*\))?\.?(?: Resolution note:.*)?$/s;

/** Go's words for the socket errors grpc-js reports, in the order they are tried. */
const CAUSES: readonly [RegExp, string][] = [
  [/ECONNREFUSED/, 'connect: connection refused'],
  [/ETIMEDOUT/, 'connect: connection timed out'],
  [/EHOSTUNREACH/, 'connect: no route to host'],
  [/ENETUNREACH/, 'connect: network is unreachable'],
  [/ECONNRESET|EPIPE|socket hang up/i, 'read: connection reset by peer'],
];

/**
 * dialFailureText rewords grpc-js's failure to connect to `address` as Go's gRPC does; anything else (the
 * other node's own error) is returned unchanged.
 */
export function dialFailureText(details: string, address: string): string {
  const m = NO_CONNECTION.exec(details.trim());
  if (!m) return details;
  const cause = m[1]!;
  if (/certificate|CERT_|self[- ]signed|unable to (?:verify|get)/i.test(cause))
    return `connection error: desc = "transport: authentication handshake failed: tls: failed to verify certificate: ${cause}"`;
  for (const [re, words] of CAUSES)
    if (re.test(cause))
      return `connection error: desc = "transport: Error while dialing: dial tcp ${address}: ${words}"`;
  return `connection error: desc = "transport: ${cause}"`;
}

/** dialFailureWords is the interceptor that rewords every call's failure to connect to `address`. */
export const dialFailureWords =
  (address: string): Interceptor =>
  (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, _listener, next) {
        next(metadata, {
          onReceiveStatus(status, nextStatus) {
            nextStatus({ ...status, details: dialFailureText(status.details, address) });
          },
        });
      },
    });
