// The client's hand-built codec against the checked-in upstream proto the server serves.
import { describe, expect, it } from 'vitest';
import { loadApiProto, serviceOf } from '../../src/api/proto.js';
import {
  CERTIFICATE_METHOD,
  decodeCertificateResponse,
  encodeCertificateRequest,
} from '../../src/trustd/index.js';

const method = () => serviceOf(loadApiProto(), 'securityapi.SecurityService').Certificate!;

describe('securityapi wire codec', () => {
  it('names the RPC as the proto does', () => {
    expect(method().path).toBe(CERTIFICATE_METHOD);
  });

  it('encodes a request the proto decodes, and decodes a response the proto encodes', () => {
    const csr = '-----BEGIN CERTIFICATE REQUEST-----\nabc\n-----END CERTIFICATE REQUEST-----\n';
    const req = method().requestDeserialize(encodeCertificateRequest(csr)) as { csr: Buffer };
    expect(req.csr.toString()).toBe(csr);
    const wire = method().responseSerialize({ ca: Buffer.from('CA'), crt: Buffer.from('CRT') });
    const res = decodeCertificateResponse(wire);
    expect(res.ca.toString()).toBe('CA');
    expect(res.crt.toString()).toBe('CRT');
    // field numbers as upstream: ca = 1, crt = 2
    expect([...wire.subarray(0, 2)]).toEqual([0x0a, 2]);
  });
});
