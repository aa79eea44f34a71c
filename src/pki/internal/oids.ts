// Object identifiers used in Keel's certificates (RFC 5280, RFC 8410, RFC 5758, RFC 8017).
// Names follow the RFCs so that a search of either finds them.

export const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  country: '2.5.4.6',

  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  extensionRequest: '1.2.840.113549.1.9.14',

  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',

  ed25519: '1.3.101.112',
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  prime256v1: '1.2.840.10045.3.1.7',
  secp384r1: '1.3.132.0.34',
  secp521r1: '1.3.132.0.35',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  sha512WithRSAEncryption: '1.2.840.113549.1.1.13',
} as const;
