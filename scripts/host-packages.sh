#!/usr/bin/env bash
# Installs the Debian packages a build or test step needs, only those missing.
# usage: scripts/host-packages.sh GROUP...   (groups: kernel image qemu trace)
set -euo pipefail

declare -A groups=(
  [kernel]="linux-source-6.1 build-essential bc flex bison libelf-dev libssl-dev cpio xz-utils zstd"
  [image]="squashfs-tools cpio zstd musl-tools gcc libc6-dev binutils systemd-boot-efi xorriso grub-pc-bin grub-efi-amd64-bin grub-common mtools dosfstools fdisk xfsprogs cryptsetup-bin dpkg-dev"
  [qemu]="qemu-system-x86 qemu-utils ovmf"
  [trace]="linux-perf"
)

wanted=()
for group in "$@"; do
  [[ -n ${groups[$group]:-} ]] || { echo "host-packages: unknown group '$group' (kernel, image, qemu, trace)" >&2; exit 2; }
  wanted+=(${groups[$group]})
done

missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
((${#missing[@]} == 0)) && exit 0

if ((EUID != 0)); then
  echo "host-packages: missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 1
fi
echo "host-packages: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
