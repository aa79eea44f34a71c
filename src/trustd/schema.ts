// The wire contract of trustd's one RPC, securityapi.SecurityService/Certificate (api/security/security.proto):
// message and field names and numbers as upstream. Built in code, as src/etcd's schema, so a worker's
// controllers need no .proto file at run time; the server serves the checked-in proto itself.
import protobuf from 'protobufjs';

/** CERTIFICATE_METHOD is the full gRPC path of the RPC. */
export const CERTIFICATE_METHOD = '/securityapi.SecurityService/Certificate';

const root = protobuf.Root.fromJSON({
  nested: {
    securityapi: {
      nested: {
        CertificateRequest: { fields: { csr: { type: 'bytes', id: 1 } } },
        CertificateResponse: { fields: { ca: { type: 'bytes', id: 1 }, crt: { type: 'bytes', id: 2 } } },
      },
    },
  },
});
const request = root.lookupType('securityapi.CertificateRequest');
const response = root.lookupType('securityapi.CertificateResponse');

/** CertificateResponseMessage: `ca` is the accepted CAs' PEM, concatenated; `crt` the signed certificate. */
export interface CertificateResponseMessage {
  readonly ca: Buffer;
  readonly crt: Buffer;
}

export const encodeCertificateRequest = (csr: string): Buffer =>
  Buffer.from(request.encode(request.fromObject({ csr: Buffer.from(csr) })).finish());

export function decodeCertificateResponse(b: Buffer): CertificateResponseMessage {
  const m = response.toObject(response.decode(b), { defaults: true }) as { ca: Uint8Array; crt: Uint8Array };
  return { ca: Buffer.from(m.ca), crt: Buffer.from(m.crt) };
}
