// The network inputs of the secrets controllers: IP byte forms, hostname status, node addresses.
import { describe, expect, it } from 'vitest';
import {
  canonicalIP,
  filteredNodeAddressID,
  fqdn,
  HostnameStatus,
  ipFromBytes,
  ipToBytes,
  NodeAddress,
  nodeIPs,
} from '../../resources/network/index.js';
import { decodeResource, encodeResource } from '../../src/cosi/resource/protobuf/index.js';
import { specYAML } from '../../src/cosi/resource/yaml.js';

describe('ipToBytes / ipFromBytes', () => {
  it.each([
    ['10.5.0.2', '0a050002', '10.5.0.2'],
    ['::1', '00000000000000000000000000000001', '::1'],
    ['fd00::2', 'fd000000000000000000000000000002', 'fd00::2'],
    ['FD00:0:0:0:0:0:0:2', 'fd000000000000000000000000000002', 'fd00::2'],
    ['2001:db8:0:1:0:0:0:1', '20010db8000000010000000000000001', '2001:db8:0:1::1'],
    ['::ffff:10.0.0.1', '00000000000000000000ffff0a000001', '::ffff:a00:1'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008', '1:2:3:4:5:6:7:8'],
  ])('%s', (ip, hex, back) => {
    expect(Buffer.from(ipToBytes(ip)).toString('hex')).toBe(hex);
    expect(ipFromBytes(ipToBytes(ip))).toBe(back);
    expect(canonicalIP(ip)).toBe(back);
  });

  it('rejects what is not an address', () => {
    expect(() => ipToBytes('example.com')).toThrow('is not an IP address');
    expect(() => ipFromBytes(new Uint8Array(5))).toThrow('4 or 16 bytes');
  });
});

describe('HostnameStatus', () => {
  it('is defined as upstream and gives the FQDN', () => {
    expect(HostnameStatus.definition).toMatchObject({
      type: 'HostnameStatuses.net.talos.dev',
      defaultNamespace: 'network',
      aliases: ['hostname', 'hostnamestatus', 'hs'],
    });
    expect(fqdn({ hostname: 'cp1', domainname: 'example.com' })).toBe('cp1.example.com');
    expect(fqdn({ hostname: 'cp1', domainname: '' })).toBe('cp1');
    const r = HostnameStatus.new('network', 'hostname', { hostname: 'cp1', domainname: 'example.com' });
    expect(specYAML(r)).toBe('hostname: cp1\ndomainname: example.com\n');
    const back = decodeResource(encodeResource(r));
    expect(HostnameStatus.is(back) && back.spec).toEqual(r.spec);
  });
});

describe('NodeAddress', () => {
  it('carries prefixes as NetIPPrefix messages and names filtered views', () => {
    expect(NodeAddress.definition.type).toBe('NodeAddresses.net.talos.dev');
    expect(filteredNodeAddressID('accumulative', 'no-k8s')).toBe('accumulative-no-k8s');
    const r = NodeAddress.new('network', 'current', { addresses: ['10.5.0.2/24', 'fd00::2/64'] });
    const back = decodeResource(encodeResource(r));
    expect(NodeAddress.is(back) && back.spec).toEqual(r.spec);
    expect(nodeIPs(r.spec)).toEqual(['10.5.0.2', 'fd00::2']);
    expect(specYAML(r)).toBe('addresses:\n    - 10.5.0.2/24\n    - fd00::2/64\nsortAlgorithm: v1\n');
  });
});
