// scripts/host-packages.sh against fake dpkg-query and apt-get (#28): only missing packages are
// installed, nothing installed is upgraded, and the package lists are refreshed only when they must be.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/host-packages.sh', import.meta.url));

// dpkg-query knows the packages in $FAKE_INSTALLED; apt-get logs each call, answers a simulation with
// $FAKE_DIR/plan, or, while $FAKE_DIR/stale exists, says it cannot locate them until `update` runs
const DPKG_QUERY = `#!/bin/sh
pkg=$(eval echo "\\$$#")
case " $FAKE_INSTALLED " in *" $pkg "*) printf 'install ok installed' ;; *) exit 1 ;; esac
`;
const APT_GET = `#!/bin/sh
echo "$*" >> "$FAKE_DIR/calls"
case "$1" in update) rm -f "$FAKE_DIR/stale"; exit 0 ;; esac
if [ -e "$FAKE_DIR/stale" ]; then echo "E: Unable to locate package $(eval echo "\\$$#")"; exit 100; fi
case " $* " in *" -s "*) cat "$FAKE_DIR/plan" ;; esac
`;

interface Host {
  readonly installed: readonly string[];
  readonly plan?: string;
  readonly staleLists?: boolean;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
beforeAll(() => {
  // the script installs only as root; below that it prints the command instead
  expect(process.getuid?.(), 'scripts/host-packages.sh installs only as root: run the tests as root').toBe(0);
});

function hostPackages(host: Host, ...groups: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'keel-host-packages-'));
  dirs.push(dir);
  for (const [name, body] of [
    ['dpkg-query', DPKG_QUERY],
    ['apt-get', APT_GET],
  ] as const) {
    writeFileSync(join(dir, name), body);
    chmodSync(join(dir, name), 0o755);
  }
  writeFileSync(join(dir, 'plan'), host.plan ?? '');
  if (host.staleLists) writeFileSync(join(dir, 'stale'), '');
  const r = spawnSync(SCRIPT, groups, {
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${dir}:${process.env.PATH}`,
      FAKE_DIR: dir,
      FAKE_INSTALLED: host.installed.join(' '),
    },
  });
  const calls = existsSync(join(dir, 'calls'))
    ? readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n')
    : [];
  return { code: r.status, stderr: r.stderr, calls };
}

const QEMU = ['qemu-system-x86', 'qemu-utils', 'ovmf'];
const newOnly =
  'Inst libslirp0 (4.7.0-1 Debian:12.11/stable [amd64])\nInst qemu-utils (1:7.2 Debian:12.11/stable [amd64])\n';

describe('host-packages.sh', () => {
  it('calls apt-get not at all when nothing is missing', () => {
    const r = hostPackages({ installed: QEMU }, 'qemu');
    expect(r.code, r.stderr).toBe(0);
    expect(r.calls).toEqual([]);
  });

  it('installs only the missing packages, with --no-upgrade, and without refreshing the lists', () => {
    const r = hostPackages({ installed: ['qemu-system-x86', 'ovmf'], plan: newOnly }, 'qemu');
    expect(r.code, r.stderr).toBe(0);
    expect(r.calls).toEqual([
      'install -y -qq --no-install-recommends --no-upgrade -s qemu-utils',
      'install -y -qq --no-install-recommends --no-upgrade qemu-utils',
    ]);
  });

  it('refuses a plan that upgrades or removes an installed package, and installs nothing', () => {
    const plan = `${newOnly}Inst libc6 [2.36-9] (2.36-10 Debian:12.11/stable [amd64])\nRemv qemu-old [1.0]\n`;
    const r = hostPackages({ installed: ['qemu-system-x86', 'ovmf'], plan }, 'qemu');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('would change installed packages');
    expect(r.stderr).toContain('libc6 2.36-9 -> 2.36-10');
    expect(r.stderr).toContain('qemu-old (removed)');
    expect(r.calls.filter((c) => !c.includes(' -s '))).toEqual([]);
  });

  it('refreshes the lists once when they lack a missing package, then installs', () => {
    const r = hostPackages(
      { installed: ['qemu-system-x86', 'ovmf'], plan: newOnly, staleLists: true },
      'qemu',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.calls).toEqual([
      'install -y -qq --no-install-recommends --no-upgrade -s qemu-utils',
      'update -qq',
      'install -y -qq --no-install-recommends --no-upgrade -s qemu-utils',
      'install -y -qq --no-install-recommends --no-upgrade qemu-utils',
    ]);
  });
});
