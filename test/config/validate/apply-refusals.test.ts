// The link and Kubernetes rules reach ApplyConfiguration: its parser refuses each sample as INVALID_ARGUMENT,
// naming the field.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { parseConfig } from '../../../src/api/machine-stateful/apply-configuration.js';
import { configText, type Patch } from './rule-table.js';

const net = (...interfaces: Record<string, unknown>[]): Patch => ({ machine: { network: { interfaces } } });
const bytes = (patch: Patch) => Buffer.from(configText('worker', patch));

/** refusalOf is the ApiError parseConfig refuses `data` with (it must refuse) */
function refusalOf(data: Buffer): ApiError {
  try {
    parseConfig(data, 'metal');
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('the config was accepted');
}

const refusal = (patch: Patch): ApiError => refusalOf(bytes(patch));

describe('ApplyConfiguration refuses', () => {
  it.each([
    [
      'a selector key upstream does not know',
      net({ deviceSelector: { vendor: 'intel' }, dhcp: true }),
      'failed to decode the configuration',
      'machine.network.interfaces[0].deviceSelector.vendor (line',
      'unknown field "vendor"',
    ],
    [
      'a selector with no key',
      net({ deviceSelector: {}, dhcp: true }),
      'configuration validation failed',
      'machine.network.interfaces[0].deviceSelector (line',
      'config section should contain at least one field',
    ],
    [
      'a MAC glob that matches no link',
      net({ deviceSelector: { hardwareAddr: '52-54-00-*' }, dhcp: true }),
      'configuration validation failed',
      'machine.network.interfaces[0].deviceSelector.hardwareAddr (line',
      'hardwareAddr "52-54-00-*" matches no link',
    ],
    [
      'subnets shared by two links',
      net(
        { interface: 'eth0', addresses: ['10.0.0.2/24'] },
        { interface: 'eth1', addresses: ['10.0.0.3/24'] },
      ),
      'configuration validation failed',
      'machine.network.interfaces[1].addresses[0] (line',
      'address "10.0.0.3/24" on link "eth1" overlaps "10.0.0.2/24" on link "eth0"',
    ],
    [
      'a VLAN MTU out of range',
      net({ interface: 'eth0', vlans: [{ vlanId: 5, dhcp: true, mtu: 70000 }] }),
      'configuration validation failed',
      'machine.network.interfaces[0].vlans[0].mtu (line',
      'MTU 70000 is out of range 68-65535',
    ],
    [
      'an off-link gateway',
      net({
        interface: 'eth0',
        addresses: ['10.0.0.2/24'],
        routes: [{ network: '0.0.0.0/0', gateway: '10.1.0.1' }],
      }),
      'configuration validation failed',
      'machine.network.interfaces[0].routes[0].gateway (line',
      'gateway "10.1.0.1" is off-link',
    ],
    [
      'a kubelet image tagged latest',
      { machine: { kubelet: { image: 'ghcr.io/siderolabs/kubelet:latest' } } },
      'configuration validation failed',
      'machine.kubelet.image (line',
      'kubelet image is not valid: failed to parse Kubernetes version from image reference',
    ],
    [
      'a pod subnet overlapping a service subnet',
      { cluster: { network: { podSubnets: ['10.96.0.0/16'], serviceSubnets: ['10.96.0.0/12'] } } },
      'configuration validation failed',
      'cluster.network.serviceSubnets[0] (line',
      'service subnet "10.96.0.0/12" overlaps pod subnet "10.96.0.0/16" (cluster.network.podSubnets[0])',
    ],
    [
      'a kubelet flag written with its dashes',
      { machine: { kubelet: { extraArgs: { '--max-pods': '50' } } } },
      'configuration validation failed',
      'machine.kubelet.extraArgs.--max-pods (line',
      'extraArgs key "--max-pods" is not a flag name',
    ],
  ])('%s', (_, patch, stage, where, what) => {
    const e = refusal(patch);
    expect(e.code).toBe('invalid-argument');
    expect(e.message).toContain(stage);
    expect(e.message).toContain(`v1alpha1 ${where}`);
    expect(e.message).toContain(what);
  });

  it('accepts the same links once they are consistent', () => {
    const patch = net(
      {
        interface: 'eth0',
        addresses: ['10.0.0.2/24', '10.0.0.3/24'],
        routes: [{ network: '0.0.0.0/0', gateway: '10.0.0.1' }],
      },
      { interface: 'eth1', addresses: ['10.0.1.2/24'], vlans: [{ vlanId: 5, dhcp: true, mtu: 9000 }] },
      { deviceSelector: { hardwareAddr: '52:54:00:*', physical: true }, dhcp: true },
    );
    expect(parseConfig(bytes(patch), 'metal').cfg.documents.length).toBeGreaterThan(0);
  });
});

describe('ApplyConfiguration refuses bytes that are no YAML text', () => {
  const raw = refusalOf;

  it.each([
    [
      Buffer.from([0x00, 0x01, 0x02]),
      'the configuration (line 1): is binary, not YAML: control character 0x00 at offset 0',
    ],
    [
      Buffer.from('a: 1\nb: \xff\n', 'latin1'),
      'the configuration (line 2): is not UTF-8 text: byte 0xff at offset 8 starts no valid character',
    ],
  ])('%#: as INVALID_ARGUMENT saying what the bytes are', (data, message) => {
    const e = raw(data);
    expect(e.code).toBe('invalid-argument');
    expect(e.message).toBe(`failed to decode the configuration: 1 error occurred:\n\t* ${message}`);
  });

  it('empty bytes, or only white space, as an empty configuration', () => {
    for (const data of [Buffer.alloc(0), Buffer.from(' \n\t\n')])
      expect(raw(data).message).toBe('configuration is empty');
  });
});
