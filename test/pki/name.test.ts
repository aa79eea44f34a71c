import { describe, expect, it } from 'vitest';
import { issueCertificate, newCertificateAuthority, parseCertificate } from '../../src/pki/index.js';
import { encodeName, formatName } from '../../src/pki/name.js';
import { openssl, withFiles } from './openssl.js';

describe('distinguished names', () => {
  it('uses PrintableString where Go would and UTF8String otherwise, both read back by openssl', async () => {
    const ca = await newCertificateAuthority({ organizations: ['talos'] });
    const leaf = await issueCertificate(ca, { commonName: 'nöde_1', organizations: ['os:admin'] });
    const asn1 = await withFiles({ crt: leaf.crt }, (p) => openssl(['asn1parse', '-in', p.crt]));
    expect(asn1.stdout).toMatch(/PRINTABLESTRING\s+:os:admin/);
    expect(asn1.stdout).toMatch(/UTF8STRING\s+:n/);
    const info = parseCertificate(leaf.crt);
    expect(info.subject.commonName).toBe('nöde_1');
    expect(info.subject.organizations).toEqual(['os:admin']);
  });

  it('encodes an empty name as an empty SEQUENCE', () => {
    expect(encodeName({}).toString('hex')).toBe('3000');
  });

  it('formats names for messages', () => {
    expect(formatName({ commonName: 'a', organizations: ['o1', 'o2'] })).toBe('O=o1, O=o2, CN=a');
    expect(formatName({})).toBe('(empty)');
  });
});
