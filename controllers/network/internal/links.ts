// What the config controllers need to know of the node's links, and the alias → name resolver.

/** LinkInfo is the part of a LinkStatus the config controllers read. */
export interface LinkInfo {
  /** the kernel's link name (the LinkStatus id) */
  readonly name: string;
  readonly alias?: string;
  readonly altNames?: readonly string[];
  /** the kernel's interface index, for bond `primary=` */
  readonly index?: number;
  /** a loopback link is never the default `ip=` device */
  readonly loopback?: boolean;
  /** an ethernet link that is not a logical kind: the default DHCP covers these */
  readonly physical?: boolean;
}

/** LinkResolver maps an alias or alternative name to the link's name; unknown names map to themselves. */
export type LinkResolver = (name: string) => string;

/** linkResolver builds the lookup: aliases first, so a link's own name always wins over another's alias. */
export function linkResolver(links: readonly LinkInfo[]): LinkResolver {
  const lookup = new Map<string, string>();
  for (const l of links) for (const a of linkAliases(l)) lookup.set(a, l.name);
  for (const l of links) lookup.set(l.name, l.name);
  return (name) => lookup.get(name) ?? name;
}

/** The identity resolver, for parsing without knowing the links. */
export const noLinkResolver: LinkResolver = (name) => name;

/** linkAliases are the alias and the alternative names. */
export const linkAliases = (l: LinkInfo): string[] => [...(l.alias ? [l.alias] : []), ...(l.altNames ?? [])];

/** allLinkNames is the name, then the alias and alternative names. */
export const allLinkNames = (l: LinkInfo): string[] => [l.name, ...linkAliases(l)];

/** firstLink is the alphabetically first non-loopback link, '' when there is none. */
export function firstLink(links: readonly LinkInfo[]): string {
  const names = links
    .filter((l) => !l.loopback)
    .map((l) => l.name)
    .sort();
  return names[0] ?? '';
}
