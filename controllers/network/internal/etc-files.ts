// /etc/resolv.conf and /etc/hosts as upstream renders them (network.EtcFileController).

/** renderResolvConf: at most three nameservers (the resolver's limit), then the search list. */
export function renderResolvConf(nameservers: readonly string[], searchDomains: readonly string[]): string {
  let out = nameservers
    .slice(0, 3)
    .map((ns) => `nameserver ${ns}\n`)
    .join('');
  if (searchDomains.length > 0) out += `\nsearch ${searchDomains.join(' ')}\n`;
  return out;
}

export interface HostsInput {
  /** the node's default address, without its prefix length */
  readonly nodeIP?: string | undefined;
  readonly hostname?: string | undefined;
  readonly fqdn?: string | undefined;
  /** extra host entries: IP → names, in config order */
  readonly extraHosts: readonly { readonly ip: string; readonly aliases: readonly string[] }[];
}

/** renderHosts aligns the address column as Go's tabwriter (padding 1, spaces) does upstream. */
export function renderHosts(i: HostsInput): string {
  const rows: [string, string][] = [['127.0.0.1', 'localhost']];
  if (i.nodeIP && i.hostname && i.fqdn)
    rows.push([i.nodeIP, i.hostname === i.fqdn ? i.fqdn : `${i.fqdn} ${i.hostname}`]);
  rows.push(
    ['::1', 'localhost ip6-localhost ip6-loopback'],
    ['ff02::1', 'ip6-allnodes'],
    ['ff02::2', 'ip6-allrouters'],
  );
  const byIP = new Map<string, string[]>();
  for (const h of i.extraHosts) byIP.set(h.ip, [...(byIP.get(h.ip) ?? []), ...h.aliases]);
  for (const ip of [...byIP.keys()].sort()) rows.push([ip, byIP.get(ip)!.join(' ')]);
  const width = Math.max(...rows.map(([ip]) => ip.length)) + 1;
  return rows.map(([ip, names]) => `${ip.padEnd(width)}${names}\n`).join('');
}
