// For tests of trustd's server, alone or as machined's service: the machine token they sign with, and the
// certificate a worker's handshake is shown.
import { connect } from 'node:tls';

export const TOKEN = 'abcdef.0123456789abcdef';

/**
 * servedCertificate is the DER certificate a handshake with 127.0.0.1:port is shown, by a plain TLS client
 * without a certificate of its own, as a worker is.
 */
export const servedCertificate = (port: number, ca: string, servername: string) =>
  new Promise<Buffer>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, ALPNProtocols: ['h2'], servername });
    socket.once('secureConnect', () => {
      const { raw } = socket.getPeerCertificate();
      socket.destroy();
      resolve(raw);
    });
    socket.once('error', reject);
  });
