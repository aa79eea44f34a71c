// Talos API roles: a client certificate carries them as its subject Organizations.
// apid grants the union of the known roles it finds; unknown ones are kept but grant nothing.

export const Role = {
  admin: 'os:admin',
  operator: 'os:operator',
  reader: 'os:reader',
  etcdBackup: 'os:etcd:backup',
  imageVerifier: 'os:image:verifier',
  metaWriter: 'os:meta:writer',
  /** apid's own proxy client: trusted to pass the caller's roles in `talos-role` metadata */
  impersonator: 'os:impersonator',
} as const;

export type Role = (typeof Role)[keyof typeof Role];
