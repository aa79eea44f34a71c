// Resource versions: undefined until the state assigns 1 on create; decimal strings on the wire.

/** Version is a resource version; `undefined` is VersionUndefined. */
export type Version = number | undefined;

export const VersionUndefined: Version = undefined;

export const versionString = (v: Version): string => (v === undefined ? 'undefined' : String(v));

/** nextVersion is what an update stores: undefined becomes 1. */
export const nextVersion = (v: Version): number => (v === undefined ? 1 : v + 1);

/** parseVersion accepts "undefined" or a non-negative decimal integer. */
export function parseVersion(s: string): Version {
  if (s === 'undefined') return undefined;
  if (!/^-?\d+$/.test(s)) throw new TypeError(`invalid version ${JSON.stringify(s)}: not a decimal integer`);
  const n = Number(s);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new TypeError(`invalid version ${JSON.stringify(s)}: out of range`);
  return n;
}
