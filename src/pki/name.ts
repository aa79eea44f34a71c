// Distinguished names as Keel uses them: an optional CommonName and a list of Organizations.
// The encoding follows Go's pkix.Name so subjects match upstream certificates byte for byte.
import { directoryString, oid, sequence, setOf } from './internal/der.js';
import { OID } from './internal/oids.js';

export interface DistinguishedName {
  readonly commonName?: string;
  /** for Talos API client certificates these are the roles (`os:admin`, …) */
  readonly organizations?: readonly string[];
}

const attribute = (type: string, value: string) => sequence(oid(type), directoryString(value));

/**
 * encodeName emits O before CN, and all Organizations in one multi-valued RDN, which is what Go's
 * pkix.Name.ToRDNSequence does; an empty name is an empty SEQUENCE.
 */
export function encodeName(name: DistinguishedName): Buffer {
  const rdns: Buffer[] = [];
  const orgs = name.organizations ?? [];
  if (orgs.length > 0) rdns.push(setOf(...orgs.map((o) => attribute(OID.organization, o))));
  if (name.commonName) rdns.push(setOf(attribute(OID.commonName, name.commonName)));
  return sequence(...rdns);
}

/** formatName renders a name for messages, e.g. `O=os:admin, CN=node-1`. */
export function formatName(name: DistinguishedName): string {
  const parts = (name.organizations ?? []).map((o) => `O=${o}`);
  if (name.commonName) parts.push(`CN=${name.commonName}`);
  return parts.join(', ') || '(empty)';
}
