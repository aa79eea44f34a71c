#!/usr/bin/env bash
# uki.sh OUT KERNEL INITRAMFS OSRELEASE [CMDLINE_FILE]
#
# Builds a Unified Kernel Image: systemd's EFI stub (linuxx64.efi.stub) with the kernel, the
# initramfs, the command line, os-release and the kernel release appended as PE sections. A UKI
# is one EFI application, so firmware can start it directly (EFI/BOOT/BOOTX64.EFI) and a future
# signature covers kernel, initramfs and command line together.
#
# Sections, in this order (the order ukify and the upstream imager use): .osrel .cmdline .uname
# .linux .initrd. Each starts at the next multiple of the stub's SectionAlignment after the
# previous one, the first after the stub's last section, so no two overlap in memory.
#
# Environment: KERNEL_RELEASE overrides the release read from the bzImage header;
# KEEL_EFI_STUB overrides the stub's path.
#
# Same inputs give the same bytes (see the timestamp fix-up at the end); the output appears
# atomically (OUT.tmp, then a rename).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/cmdline.sh
source "$root/scripts/lib/cmdline.sh"

usage() { echo "usage: $0 OUT KERNEL INITRAMFS OSRELEASE [CMDLINE_FILE]" >&2; exit 2; }
[[ $# -ge 4 && $# -le 5 ]] || usage
out=$1 kernel=$2 initramfs=$3 osrelease=$4 cmdline_file=${5:-$root/images/cmdline}
# Debian's systemd-boot-efi package (systemd 252) ships the stub here.
stub=${KEEL_EFI_STUB:-/usr/lib/systemd/boot/efi/linuxx64.efi.stub}

for f in "$stub" "$kernel" "$initramfs" "$osrelease" "$cmdline_file"; do
  [[ -f $f && -r $f ]] || { echo "uki: cannot read $f" >&2; exit 1; }
done

# kernel_release KERNEL: the release string the bzImage carries. Boot protocol (x86 boot.rst):
# the setup header's "HdrS" magic sits at 0x202, and the 16-bit field at 0x20E holds the offset
# of a NUL-terminated version string, counted from 0x200. That string starts with the release
# ("6.1.0 (user@host) #1 ..."), which is all .uname wants.
kernel_release() {
  local k=$1 magic ptr
  magic=$(dd if="$k" bs=1 skip=$((0x202)) count=4 status=none)
  [[ $magic == HdrS ]] || { echo "uki: $k is not a bzImage (no HdrS magic)" >&2; return 1; }
  ptr=$(od -An -tu2 -j $((0x20E)) -N2 "$k" | tr -d ' ')
  dd if="$k" bs=1 skip=$((ptr + 0x200)) count=256 status=none | tr '\0' '\n' | head -n1 | cut -d' ' -f1
}

release=${KERNEL_RELEASE:-$(kernel_release "$kernel")}
[[ -n $release ]] || { echo "uki: empty kernel release" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/keel-uki.XXXXXX")
trap 'rm -rf "$work" "$out.tmp"' EXIT

# The stub reads .cmdline and .uname as plain strings; a trailing newline would become part of
# the kernel command line, so both are written without one.
keel_cmdline "$cmdline_file" >"$work/cmdline"
printf '%s' "$release" >"$work/uname"

# SectionAlignment from the PE optional header; every section's address must be a multiple.
align=$(objdump -p "$stub" | awk '$1 == "SectionAlignment" { print $2 }')
[[ -n $align ]] || { echo "uki: no SectionAlignment in $stub" >&2; exit 1; }
align=$((16#$align))

# End of the stub's last section in memory: the highest VMA + size over all its sections
# (objdump -h prints both in hex, the VMA including the image base, as --change-section-vma
# expects).
end=$(objdump -h "$stub" | awk '$1 ~ /^[0-9]+$/ { print $3, $4 }' | {
  max=0
  while read -r size vma; do
    e=$((16#$vma + 16#$size))
    ((e > max)) && max=$e
  done
  echo "$max"
})
((end > 0)) || { echo "uki: cannot find the stub's sections" >&2; exit 1; }

args=()
next=$end
add() { # add NAME FILE: place NAME at the next aligned address after the previous section
  local name=$1 file=$2 size vma
  size=$(stat -c %s "$file")
  vma=$(((next + align - 1) / align * align))
  args+=(--add-section "$name=$file" --change-section-vma "$(printf '%s=0x%x' "$name" "$vma")")
  # added sections are data the stub reads, never code
  args+=(--set-section-flags "$name=data,readonly")
  next=$((vma + size))
}
add .osrel "$osrelease"
add .cmdline "$work/cmdline"
add .uname "$work/uname"
add .linux "$kernel"
add .initrd "$initramfs"

# u32 FILE OFFSET / put_u32 FILE OFFSET VALUE: little-endian 32-bit fields of the PE headers.
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
put_u32() {
  local v=$3
  printf '%b' "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))" |
    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# objcopy stamps the PE header with the current time (binutils 2.40 ignores SOURCE_DATE_EPOCH
# there), which alone would make every build differ. Put the stub's own TimeDateStamp back (zero
# in Debian's stub) and fix the header CheckSum to match, so the result is a function of the
# inputs only. Offsets: e_lfanew at 0x3C; TimeDateStamp 8 bytes into the PE signature + COFF
# header; CheckSum 64 bytes into the optional header, which starts 24 bytes after e_lfanew.
pe=$(u32 "$stub" $((0x3C)))
ts_off=$((pe + 8)) sum_off=$((pe + 24 + 64))
want_ts=$(u32 "$stub" "$ts_off")

mkdir -p "$(dirname "$out")"
objcopy "${args[@]}" "$stub" "$out.tmp"

have_ts=$(u32 "$out.tmp" "$ts_off")
if ((have_ts != want_ts)); then
  # The PE checksum is the file's 16-bit words summed with end-around carry, plus the file
  # length; swapping the timestamp's two words is an update of that sum, no need to re-read
  # the whole image.
  size=$(stat -c %s "$out.tmp")
  sum=$(($(u32 "$out.tmp" "$sum_off") - size))
  fold() { sum=$(((sum & 0xffff) + (sum >> 16))); sum=$(((sum & 0xffff) + (sum >> 16))); }
  for w in $((have_ts & 0xffff)) $((have_ts >> 16)); do
    sum=$((sum + (0xffff - w))) # one's-complement subtraction
    fold
  done
  for w in $((want_ts & 0xffff)) $((want_ts >> 16)); do
    sum=$((sum + w))
    fold
  done
  put_u32 "$out.tmp" "$ts_off" "$want_ts"
  put_u32 "$out.tmp" "$sum_off" $((sum + size))
fi
mv -f "$out.tmp" "$out"
