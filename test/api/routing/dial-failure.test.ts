// A failure to reach another node, worded as upstream's apid words it.
import { describe, expect, it } from 'vitest';
import { dialFailureText } from '../../../src/api/routing/dial-failure.js';

const grpcJs = (cause: string) =>
  `No connection established. Last error: Error: ${cause} (2026-12-03T10:00:00.000Z). Resolution note: `;

describe('dialFailureText', () => {
  it.each([
    [
      'connect ECONNREFUSED 10.5.0.3:50000',
      'Error while dialing: dial tcp 10.5.0.3:50000: connect: connection refused',
    ],
    [
      'connect ETIMEDOUT 10.5.0.3:50000',
      'Error while dialing: dial tcp 10.5.0.3:50000: connect: connection timed out',
    ],
    [
      'connect EHOSTUNREACH 10.5.0.3:50000',
      'Error while dialing: dial tcp 10.5.0.3:50000: connect: no route to host',
    ],
    [
      'self-signed certificate',
      'authentication handshake failed: tls: failed to verify certificate: self-signed certificate',
    ],
  ])('%s', (cause, words) => {
    expect(dialFailureText(grpcJs(cause), '10.5.0.3:50000')).toBe(
      `connection error: desc = "transport: ${words}"`,
    );
  });

  it("leaves the other node's own errors alone", () => {
    expect(dialFailureText('not authorized: needs os:admin', '10.5.0.3:50000')).toBe(
      'not authorized: needs os:admin',
    );
  });
});
