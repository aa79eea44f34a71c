// The node's name as HostnameStatus shows it: a kernel name that is an address is no FQDN.
import { describe, expect, it } from 'vitest';
import { splitHostname } from '../../../src/machined/node/host-identity.js';

describe('splitHostname', () => {
  it.each([
    ['node-1', 'node-1', ''],
    ['node-1.example.org', 'node-1', 'example.org'],
    // a host named after its address (as the kernel's own DHCP names one)
    ['10.0.2.15', 'keel-10-0-2-15', ''],
    ['fd00::15', 'keel-fd00-15', ''],
    ['', 'keel', ''],
  ])('%j is hostname %j, domain %j', (name, hostname, domainname) => {
    expect(splitHostname(name)).toEqual({ hostname, domainname });
  });
});
