import { describe, expect, it } from 'vitest';
import { renderHosts, renderResolvConf } from '../../../../controllers/network/internal/etc-files.js';

describe('etc files', () => {
  it('renders resolv.conf with at most three nameservers and the search list', () => {
    expect(renderResolvConf(['10.0.2.3', '1.1.1.1', '8.8.8.8', '9.9.9.9'], ['example.org', 'corp'])).toBe(
      'nameserver 10.0.2.3\nnameserver 1.1.1.1\nnameserver 8.8.8.8\n\nsearch example.org corp\n',
    );
    expect(renderResolvConf(['1.1.1.1'], [])).toBe('nameserver 1.1.1.1\n');
  });

  it('renders hosts with the node name and extra entries, the address column aligned', () => {
    expect(
      renderHosts({
        nodeIP: '10.0.2.15',
        hostname: 'node1',
        fqdn: 'node1.example.org',
        extraHosts: [
          { ip: '192.168.1.100', aliases: ['registry'] },
          { ip: '10.5.0.1', aliases: ['gw'] },
          { ip: '192.168.1.100', aliases: ['mirror'] },
        ],
      }),
    ).toBe(
      [
        '127.0.0.1     localhost',
        '10.0.2.15     node1.example.org node1',
        '::1           localhost ip6-localhost ip6-loopback',
        'ff02::1       ip6-allnodes',
        'ff02::2       ip6-allrouters',
        '10.5.0.1      gw',
        '192.168.1.100 registry mirror',
        '',
      ].join('\n'),
    );
    expect(renderHosts({ extraHosts: [] })).toBe(
      '127.0.0.1 localhost\n::1       localhost ip6-localhost ip6-loopback\nff02::1   ip6-allnodes\nff02::2   ip6-allrouters\n',
    );
  });
});
