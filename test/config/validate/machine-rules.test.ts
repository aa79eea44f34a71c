// One valid and one invalid sample per `machine.*` rule outside the network, after upstream's Validate.
import { describe } from 'vitest';
import { type RuleCase, ruleTable } from './rule-table.js';

const selector = (s: Record<string, unknown>) => ({ machine: { install: { disk: '', diskSelector: s } } });
const logTo = (endpoint: string, format = 'json_lines') => ({
  machine: { logging: { destinations: [{ endpoint, format }] } },
});
const partitions = (...sizes: string[]) => ({
  machine: {
    disks: [
      { device: '/dev/sdb', partitions: sizes.map((size, i) => ({ mountpoint: `/var/mnt/p${i}`, size })) },
    ],
  },
});

const cases: RuleCase[] = [
  {
    rule: 'disk selector size is an expression',
    valid: selector({ size: '>= 100GB' }),
    invalid: selector({ size: '>= lots' }),
    path: 'machine.install.diskSelector.size',
    error: 'failed to parse disk size lots',
  },
  {
    rule: 'disk selector size takes a bare byte count',
    valid: selector({ size: '4000000000' }),
    invalid: selector({ size: '=> 4GB' }),
    path: 'machine.install.diskSelector.size',
    error: 'failed to parse disk size',
  },
  {
    rule: 'disk selector type is known',
    valid: selector({ type: 'nvme' }),
    invalid: selector({ type: 'tape' }),
    path: 'machine.install.diskSelector.type',
    error: 'unsupported disk type "tape"',
  },
  {
    rule: 'disk selector cannot match on name',
    valid: selector({ model: 'WDC*' }),
    invalid: selector({ name: 'sda' }),
    path: 'machine.install.diskSelector.name',
    error: 'selector on name is not supported',
  },
  {
    rule: 'system extensions are listed once',
    valid: { machine: { install: { extensions: [{ image: 'ghcr.io/x/a:1' }, { image: 'ghcr.io/x/b:1' }] } } },
    invalid: {
      machine: { install: { extensions: [{ image: 'ghcr.io/x/a:1' }, { image: 'ghcr.io/x/a:1' }] } },
    },
    path: 'machine.install.extensions[1].image',
    error: 'duplicate system extension "ghcr.io/x/a:1"',
  },
  {
    rule: 'only the last partition takes the rest of the disk',
    valid: partitions('10GB', '0'),
    invalid: partitions('0', '10GB'),
    path: 'machine.disks[0].partitions[0].size',
    error: "is set to occupy full disk, but it's not the last partition in the list",
  },
  {
    rule: 'partition size is a byte size',
    valid: partitions('100 MiB'),
    invalid: partitions('big'),
    path: 'machine.disks[0].partitions[0].size',
    error: 'invalid disk size "big"',
  },
  {
    rule: 'logging endpoint is tcp or udp',
    valid: logTo('udp://127.0.0.1:12345'),
    invalid: logTo('https://logs.example.com'),
    path: 'machine.logging.destinations[0].endpoint',
    error: 'unexpected logging endpoint scheme "https"',
  },
  {
    rule: 'logging endpoint has a host',
    valid: logTo('tcp://logs.example.com:5044'),
    invalid: logTo('tcp://:5044'),
    path: 'machine.logging.destinations[0].endpoint',
    error: "empty logging endpoint's host",
  },
  {
    rule: 'logging format is json_lines',
    valid: logTo('tcp://10.0.0.1:5044', 'json_lines'),
    invalid: logTo('tcp://10.0.0.1:5044', 'syslog'),
    path: 'machine.logging.destinations[0].format',
    error: 'unknown logging format "syslog"',
  },
  {
    rule: 'label key prefix is a DNS-1123 subdomain',
    valid: { machine: { nodeLabels: { 'example.com/role': 'edge' } } },
    invalid: { machine: { nodeLabels: { 'Example.COM/role': 'edge' } } },
    path: 'machine.nodeLabels.Example.COM/role',
    error: `prefix "Example.COM" is invalid: domain doesn't match required format`,
  },
  {
    rule: 'label value is at most 63 characters',
    valid: { machine: { nodeLabels: { zone: 'a'.repeat(63) } } },
    invalid: { machine: { nodeLabels: { zone: 'a'.repeat(64) } } },
    path: 'machine.nodeLabels.zone',
    error: 'label value length exceeds limit of 63',
  },
  {
    rule: 'annotations Talos owns are reserved',
    valid: { machine: { nodeAnnotations: { 'example.com/owner': 'ops' } } },
    invalid: { machine: { nodeAnnotations: { 'talos.dev/owned-labels': '[]' } } },
    path: 'machine.nodeAnnotations.talos.dev/owned-labels',
    error: 'annotation "talos.dev/owned-labels" is reserved',
  },
  {
    rule: 'annotations total at most 256 KiB',
    valid: { machine: { nodeAnnotations: { big: 'x'.repeat(1000) } } },
    invalid: { machine: { nodeAnnotations: { big: 'x'.repeat(256 * 1024) } } },
    path: 'machine.nodeAnnotations',
    error: 'total annotation size exceeds limit of 262144 bytes',
  },
  {
    rule: 'taint value is a label value',
    valid: { machine: { nodeTaints: { dedicated: 'gpu:NoSchedule' } } },
    invalid: { machine: { nodeTaints: { dedicated: 'g p u:NoSchedule' } } },
    path: 'machine.nodeTaints.dedicated',
    error: 'label value "g p u" is invalid',
  },
  {
    rule: 'kubelet extraConfig cannot override protected fields',
    valid: { machine: { kubelet: { extraConfig: { serverTLSBootstrap: true } } } },
    invalid: { machine: { kubelet: { extraConfig: { staticPodPath: '/tmp' } } } },
    path: 'machine.kubelet.extraConfig.staticPodPath',
    error: 'kubelet configuration field "staticPodPath" can\'t be overridden',
  },
];

describe('machine rules', () => ruleTable(cases));
