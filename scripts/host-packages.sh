#!/usr/bin/env bash
# Installs the Debian packages a build or test step needs, only those missing, and upgrades nothing.
# usage: scripts/host-packages.sh GROUP...   (groups: kernel image qemu net block trace components)
set -euo pipefail

declare -A groups=(
  [kernel]="linux-source-6.1 build-essential bc flex bison libelf-dev libssl-dev cpio xz-utils zstd"
  [image]="squashfs-tools cpio zstd musl-tools gcc libc6-dev binutils systemd-boot-efi xorriso grub-pc-bin grub-efi-amd64-bin grub-common mtools dosfstools fdisk xfsprogs cryptsetup-bin dpkg-dev"
  [qemu]="qemu-system-x86 qemu-utils ovmf"
  [net]="dnsmasq-base iproute2"
  [block]="gdisk util-linux e2fsprogs xfsprogs dosfstools cryptsetup-bin squashfs-tools xorriso"
  [trace]="linux-perf"
  # runc links statically (scripts/components): glibc's and libseccomp's static libraries
  [components]="gcc libc6-dev libseccomp-dev pkg-config squashfs-tools"
)

wanted=()
for group in "$@"; do
  [[ -n ${groups[$group]:-} ]] || { echo "host-packages: unknown group '$group' (kernel, image, qemu, net, block, trace, components)" >&2; exit 2; }
  wanted+=(${groups[$group]})
done

missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
  echo "host-packages: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install --no-upgrade ${missing[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# --no-upgrade keeps an installed package named here as it is; a missing package's dependencies can still
# pull newer versions of installed ones (or remove conflicting ones), which only the plan shows
install=(apt-get install -y -qq --no-install-recommends --no-upgrade)

# held: installed packages pinned to the version they have ("name=version"), so that apt must find versions
# of the missing ones that fit the host as it is (a security update of a dependency is often only the
# resolver's first choice, not a need: e.g. systemd-boot-efi without a newer systemd)
held=()

# plan_ok simulates the install: 1 if apt cannot (PLAN_ERROR says why). A plan that would upgrade,
# downgrade or remove an installed package is tried once more with those packages held at their versions;
# if apt still needs to change one, the script ends, since the host is not ours to change
plan_ok() {
  local plan changed
  plan=$("${install[@]}" -s "${missing[@]}" "${held[@]}" 2>&1) || { PLAN_ERROR=$plan; return 1; }
  # "Inst name [installed version] (new version …)" changes an installed package; "Remv name" removes one
  changed=$(sed -nE 's/^Inst ([^ ]+) \[([^]]+)\] \(([^ ]+).*/\1 \2 -> \3/p; s/^Remv ([^ ]+).*/\1 (removed)/p' <<<"$plan")
  [[ -z $changed ]] && return 0
  if ((${#held[@]} == 0)) && ! grep -q '(removed)' <<<"$changed"; then
    mapfile -t held < <(sed -nE 's/^([^ ]+) ([^ ]+) -> .*/\1=\2/p' <<<"$changed")
    plan_ok && return 0
  fi
  echo "host-packages: installing ${missing[*]} would change installed packages:" >&2
  sed 's/^/  /' <<<"$changed" >&2
  echo "host-packages: not doing that; if that is fine, run: apt-get install ${missing[*]}" >&2
  exit 1
}

# The package lists are refreshed only when they lack what is missing, or name files the mirror no longer
# has: the root filesystem takes its package versions from them (scripts/rootfs/debs.ts).
refreshed=0
refresh() {
  apt-get update -qq >&2
  refreshed=1
  plan_ok || { echo "$PLAN_ERROR" >&2; exit 1; }
}
plan_ok || refresh
echo "host-packages: installing ${missing[*]}${held[*]:+ (keeping ${held[*]})}" >&2
# naming a held package marks it manually installed: put back the automatic marks it had
auto=()
((${#held[@]} == 0)) || mapfile -t auto < <(apt-mark showauto "${held[@]%%=*}")
remark() { ((${#auto[@]} == 0)) || apt-mark auto "${auto[@]}" >/dev/null; }
if "${install[@]}" "${missing[@]}" "${held[@]}" >&2; then remark; exit 0; fi
((refreshed == 0)) || exit 1
refresh
"${install[@]}" "${missing[@]}" "${held[@]}" >&2
remark
