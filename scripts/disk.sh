#!/usr/bin/env bash
# disk.sh OUT UKI [SIZE_MIB]
#
# Builds Keel's raw GPT disk image (for `dd` to a disk, or as a VM's disk): one EFI system
# partition holding the UKI as EFI/BOOT/BOOTX64.EFI, the removable-media fallback path that
# UEFI firmware boots without any boot entry or boot manager (a UKI is a plain EFI application).
#
# The META, STATE and EPHEMERAL partitions are not made here: they come with the installer,
# which lays them out (and grows STATE/EPHEMERAL to the disk) on the target machine.
#
# SIZE_MIB defaults to the smallest multiple of 64 MiB that holds the partition table, the
# UKI and some headroom; the EFI partition fills the disk up to the backup GPT.
#
# Reproducible: fixed disk and partition GUIDs, a fixed FAT volume id, FAT dates from
# SOURCE_DATE_EPOCH (default 0). Built in a file with sfdisk, mkfs.vfat --offset and mtools:
# no loop devices, no mounts, no root needed.
set -euo pipefail

usage() { echo "usage: $0 OUT UKI [SIZE_MIB]" >&2; exit 2; }
[[ $# -ge 2 && $# -le 3 ]] || usage
out=$1 uki=$2 size_mib=${3:-}
[[ -f $uki && -r $uki ]] || { echo "disk: cannot read $uki" >&2; exit 1; }
[[ -z $size_mib || $size_mib =~ ^[1-9][0-9]*$ ]] || { echo "disk: SIZE_MIB must be a whole number" >&2; exit 2; }
# FAT cannot date anything before 1980 (1970 would wrap around to 2098), and stores local
# time: mtools gets the later of SOURCE_DATE_EPOCH and 1980-01-01, in UTC.
epoch=${SOURCE_DATE_EPOCH:-0}
export SOURCE_DATE_EPOCH=$((epoch > 315532800 ? epoch : 315532800)) TZ=UTC
# mtools otherwise refuses images whose size is no multiple of its idea of a track
export MTOOLS_SKIP_CHECK=1

# Fixed identifiers: every Keel image of a build is the same bytes. The installer gives an
# installed disk its own GUIDs.
disk_guid=0FE904F8-B235-40B4-BC60-295B7EA57190
esp_guid=D2138F21-0218-4208-A40F-D2EB4FDA48E7
esp_type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B # EFI system partition
fat_id=4B45454C                               # "KEEL"

mib=$((1024 * 1024))
# Partitions start at 1 MiB (the usual alignment; the primary GPT needs 34 sectors) and end
# at least 1 MiB before the end, where the backup GPT lives.
esp_start=2048
uki_bytes=$(stat -c %s "$uki")
# The EFI partition wants room for the UKI plus 8 MiB (FAT metadata, a config file or two),
# and at least 40 MiB: FAT32 needs 65525 clusters, 32 MiB at 512-byte clusters.
need_esp_mib=$(((uki_bytes + mib - 1) / mib + 8))
((need_esp_mib < 40)) && need_esp_mib=40
need_mib=$((1 + need_esp_mib + 1))
if [[ -z $size_mib ]]; then
  size_mib=$(((need_mib + 63) / 64 * 64))
elif ((size_mib < need_mib)); then
  echo "disk: $size_mib MiB is too small, the UKI needs $need_mib MiB" >&2
  exit 1
fi
esp_sectors=$(((size_mib - 2) * mib / 512))

trap 'rm -f "$out.tmp"' EXIT
mkdir -p "$(dirname "$out")"
rm -f "$out.tmp"
truncate -s "$((size_mib * mib))" "$out.tmp"

sfdisk --quiet --no-reread --no-tell-kernel "$out.tmp" <<TABLE
label: gpt
label-id: $disk_guid
unit: sectors
first-lba: 34
start=$esp_start, size=$esp_sectors, type=$esp_type, uuid=$esp_guid, name="EFI"
TABLE

# FAT32 written straight into the partition's place in the file; -h records the partition
# offset as hidden sectors, --invariant pins the remaining time-based fields.
# (--invariant must precede -i, or it resets the volume id.) mkfs.vfat warns that the file
# holds more blocks than asked for, which is the backup GPT's room: keep it quiet unless it fails.
if ! msg=$(mkfs.vfat -F 32 -n EFI --invariant -i "$fat_id" --offset "$esp_start" -h "$esp_start" \
  "$out.tmp" $((esp_sectors / 2)) 2>&1); then
  echo "$msg" >&2
  exit 1
fi
esp="$out.tmp@@$((esp_start * 512))"
mmd -i "$esp" ::/EFI ::/EFI/BOOT
mcopy -i "$esp" "$uki" ::/EFI/BOOT/BOOTX64.EFI
mv -f "$out.tmp" "$out"
