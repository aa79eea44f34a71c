// Upstream's kernel parameter names against their files: the two prefixes, sysctl.d(5)'s separators, and
// writes that never create a file the kernel lacks (checked under a stand-in root).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  hasKernelParam,
  KernelParamKeyError,
  kernelParamPath,
  readKernelParam,
  writeKernelParam,
} from '../../src/sys/kernel-param.js';
import { scratchDir } from './child.js';

describe('kernelParamPath', () => {
  it('puts proc.sys.* under /proc/sys and sys.* under /sys, a dash kept within a part', () => {
    expect(kernelParamPath('proc.sys.net.bridge.bridge-nf-call-iptables')).toBe(
      '/proc/sys/net/bridge/bridge-nf-call-iptables',
    );
    expect(kernelParamPath('sys.kernel.mm.transparent_hugepage.enabled')).toBe(
      '/sys/kernel/mm/transparent_hugepage/enabled',
    );
  });

  it('reads a slash after a dot as a dot, and keeps a slashed key as written', () => {
    expect(kernelParamPath('proc.sys.net.ipv4.conf.eth0/100.forwarding')).toBe(
      '/proc/sys/net/ipv4/conf/eth0.100/forwarding',
    );
    expect(kernelParamPath('proc.sys.net/ipv4/conf/eth0.100/forwarding')).toBe(
      '/proc/sys/net/ipv4/conf/eth0.100/forwarding',
    );
  });

  it('stays under its root and refuses a key under neither prefix', () => {
    expect(kernelParamPath('proc.sys.net/../../../etc/passwd')).toBe('/proc/sys/etc/passwd');
    expect(() => kernelParamPath('net.ipv4.ip_forward')).toThrow(KernelParamKeyError);
  });
});

describe('reading and writing', () => {
  it('replaces a value, and a missing key is ENOENT, not a new file', () => {
    const root = scratchDir('keel-kparam-');
    const roots = { procSys: join(root, 'proc/sys'), sys: join(root, 'sys') };
    mkdirSync(join(roots.procSys, 'kernel'), { recursive: true });
    writeFileSync(join(roots.procSys, 'kernel/pid_max'), '4194304\n');
    expect(readKernelParam('proc.sys.kernel.pid_max', roots)).toBe('4194304\n');
    writeKernelParam('proc.sys.kernel.pid_max', '262144', roots);
    expect(readFileSync(join(roots.procSys, 'kernel/pid_max'), 'utf8')).toBe('262144');
    expect(() => writeKernelParam('proc.sys.kernel.nope', '1', roots)).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(hasKernelParam('proc.sys.kernel.nope', roots)).toBe(false);
    expect(hasKernelParam('proc.sys.kernel.pid_max', roots)).toBe(true);
  });
});
