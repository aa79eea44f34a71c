// The console hint of a node waiting for its first config: the command to send one, with the addresses
// the node has. The API's own lines can only name the bound address (0.0.0.0 on a node).
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';

/** nodeAddresses lists the non-loopback IPv4 addresses, in interface order. */
export function nodeAddresses(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  const out: string[] = [];
  for (const infos of Object.values(interfaces))
    for (const i of infos ?? [])
      if (i.family === 'IPv4' && !i.internal && !out.includes(i.address)) out.push(i.address);
  return out;
}

/** applyConfigHint is what the console shows while the maintenance API waits. */
export function applyConfigHint(addresses: readonly string[], port = 50000): string[] {
  // keelctl dials port 50000; another port has to be part of the node's address
  const node = (a: string) => (port === 50000 ? a : `${a}:${port}`);
  if (addresses.length === 0)
    return [
      '[keel] no IPv4 address yet: apply a config with keelctl apply-config --insecure --nodes <node-ip> --file controlplane.yaml',
    ];
  return [
    `[keel] node addresses: ${addresses.join(', ')}`,
    ...addresses.map(
      (a) =>
        `[keel] apply a config: keelctl apply-config --insecure --nodes ${node(a)} --file controlplane.yaml`,
    ),
  ];
}
