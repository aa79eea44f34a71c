// Upstream's default kernel parameters for a node, as data (KernelParamDefaultsController publishes them):
// without the KSPP hardening set, and never in container mode, where the host's kernel is left as it is.
// The kubelet runs with protectKernelDefaults and refuses to start unless vm.overcommit_memory is 1 and
// kernel.panic 10; Kubernetes' networking needs forwarding.
import { SYSCTL_PREFIX } from '../../src/sys/kernel-param.js';

/** KernelParamDefault: a sysctl key as sysctl(8) spells it, and its value. */
export type KernelParamDefault = readonly [key: string, value: string];

/** the key whose presence says the kernel has IPv6, as upstream checks */
export const IPV6_PROBE = `${SYSCTL_PREFIX}.net.ipv6.conf.default.accept_ra`;

/** keep apid (50000) and trustd (50001) out of the ephemeral port range, as upstream */
const RESERVED_PORTS = '50000,50001';

/** kernelParamDefaults is upstream's list; the IPv6 ones only where the kernel has IPv6. */
export function kernelParamDefaults(ipv6: boolean): KernelParamDefault[] {
  return [
    ['net.ipv4.ip_forward', '1'],
    ['net.ipv4.icmp_ignore_bogus_error_responses', '1'],
    ['net.ipv4.icmp_echo_ignore_broadcasts', '1'],
    ['net.ipv4.ip_local_reserved_ports', RESERVED_PORTS],
    ['net.bridge.bridge-nf-call-iptables', '1'],
    ['net.bridge.bridge-nf-call-ip6tables', '1'],
    ...(ipv6
      ? ([
          ['net.ipv6.conf.default.forwarding', '1'],
          ['net.ipv6.conf.default.accept_ra', '2'],
        ] as const)
      : []),
    // ipvs/conntrack TCP keepalive refresh
    ['net.ipv4.tcp_keepalive_time', '600'],
    ['net.ipv4.tcp_keepalive_intvl', '60'],
    ['kernel.panic', '10'],
    ['kernel.pid_max', '262144'],
    ['vm.overcommit_memory', '1'],
    // for Kubernetes' workloads
    ['fs.inotify.max_user_instances', '8192'],
    ['fs.aio-max-nr', '1048576'],
  ];
}
