// The kubelet's node IPs from the node's addresses, as upstream's NodeIPController picks them: those in a
// valid subnet and in no excluded one, then the first IPv4 and the first IPv6 address of them.
import { filterIPs } from '../../internal/filter-ips.js';

export interface PickedNodeIPs {
  readonly addresses: string[];
  /** suitable addresses left out: a second one of a family */
  readonly skipped: string[];
}

export function pickNodeIPs(
  ips: readonly string[],
  valid: readonly string[],
  exclude: readonly string[],
): PickedNodeIPs {
  const addresses: string[] = [];
  const skipped: string[] = [];
  let v4 = false;
  let v6 = false;
  for (const ip of filterIPs(ips, valid, exclude)) {
    const six = ip.includes(':');
    if (six ? v6 : v4) skipped.push(ip);
    else {
      addresses.push(ip);
      if (six) v6 = true;
      else v4 = true;
    }
  }
  return { addresses, skipped };
}
