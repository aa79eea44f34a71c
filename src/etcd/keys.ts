// Key ranges as etcd's client builds them: a prefix is the range [prefix, prefixEnd(prefix)).

/** prefixEnd is the first key after every key that starts with prefix (etcd's GetPrefixRangeEnd). */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  // all 0xff (or empty): no key is greater, so the range runs to the end of the keyspace
  return Buffer.from([0]);
}

/** leaseKeyName is the key a session holds under a mutex prefix: the prefix and its lease ID in hex. */
export const leaseKeyName = (prefix: string, leaseID: string): string =>
  `${prefix}${BigInt(leaseID).toString(16)}`;
