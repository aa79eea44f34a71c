#!/usr/bin/env bash
# iso.sh OUT KERNEL INITRAMFS [UKI [LAYER…]]
#
# Builds Keel's hybrid installation/live ISO: it boots from a CD or a USB stick, with BIOS and
# with UEFI. Both firmware kinds start GRUB, and GRUB loads the one copy of the kernel and the
# initramfs from the ISO 9660 tree (/boot/vmlinuz, /boot/initramfs) with the command line from
# images/cmdline, so the payload is carried once.
#
# With a UKI, the ISO also carries what installing Keel to a disk needs, since a node installs from
# its boot medium (src/install): under /keel/install/ the UKI (keel.efi), systemd-boot
# (systemd-bootx64.efi), GRUB's boot.img and core.img for BIOS disks (scripts/grub-bios.sh) and the
# kernel command line GRUB is to pass (cmdline); GRUB's slots take the kernel and the initramfs from
# /boot. The UKI stores the kernel and the initramfs a second time (about 42 MB), as the upstream ISO
# does; the initramfs itself stays as it is (nothing of the install goes into it).
#
# With layers (components.sqsh: etcd, containerd, runc, the CNI plugins; kubernetes.sqsh: the kubelet
# and the control plane's images; docs/components.md), the ISO carries each as /keel/<its file name>,
# which a node mounts once it finds its boot medium and an install copies to the disk. They are files of
# the ISO 9660 tree, not part of the initramfs: the boot to maintenance mode never reads them.
#
# Rather than grub-mkrescue (which stamps the current time into the image, picks a random FAT
# serial and installs every GRUB module, several MiB), the GRUB images are built here with
# grub-mkimage holding just the modules they need, and xorriso lays out the ISO the way
# grub-mkrescue would: El Torito BIOS image + GRUB hybrid MBR for USB, El Torito EFI image
# (a small FAT image holding EFI/BOOT/BOOTX64.EFI), the latter also listed as a GPT EFI system
# partition so that UEFI firmware boots the image written to a USB stick.
# All dates come from SOURCE_DATE_EPOCH (default 0), so the same inputs give the same bytes.
#
# Environment: CMDLINE_FILE (default images/cmdline), SOURCE_DATE_EPOCH, KEEL_GRUB_LIB (GRUB's
# platform directories, default /usr/lib/grub), KEEL_SYSTEMD_BOOT (systemd-boot's EFI binary, default
# Debian's systemd-boot-efi one).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/cmdline.sh
source "$root/scripts/lib/cmdline.sh"

usage() { echo "usage: $0 OUT KERNEL INITRAMFS [UKI [LAYER…]]" >&2; exit 2; }
[[ $# -ge 3 ]] || usage
out=$1 kernel=$2 initramfs=$3 uki=${4:-}
layers=("${@:5}")
# the install that copies a layer needs the UKI; a layer's name says which it is (components, kubernetes)
[[ ${#layers[@]} -eq 0 || -n $uki ]] || usage
for l in ${layers[@]+"${layers[@]}"}; do
  [[ $(basename "$l") =~ ^[a-z0-9-]+\.sqsh$ ]] || { echo "iso: $l: a layer is NAME.sqsh" >&2; exit 2; }
done
cmdline_file=${CMDLINE_FILE:-$root/images/cmdline}
grub_lib=${KEEL_GRUB_LIB:-/usr/lib/grub}
sd_boot=${KEEL_SYSTEMD_BOOT:-/usr/lib/systemd/boot/efi/systemd-bootx64.efi}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-0}

for f in "$kernel" "$initramfs" "$cmdline_file" "$root/images/grub.cfg" ${uki:+"$uki" "$sd_boot"} ${layers[@]+"${layers[@]}"}; do
  [[ -f $f && -r $f ]] || { echo "iso: cannot read $f" >&2; exit 1; }
done
for d in "$grub_lib/i386-pc" "$grub_lib/x86_64-efi"; do
  [[ -d $d ]] || { echo "iso: $d missing (grub-pc-bin, grub-efi-amd64-bin)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/keel-iso.XXXXXX")
trap 'rm -rf "$work" "$out.tmp"' EXIT

cmdline=$(keel_cmdline "$cmdline_file")

# GRUB finds the ISO by its file-system UUID, which for ISO 9660 is the volume modification
# date. The UEFI GRUB starts from the FAT boot image, not from the ISO tree, so it must search;
# a date derived from the content (not the clock) keeps the build reproducible and makes two
# different Keel media attached at once tell apart. Range: 2000-01-01 plus up to ~100 years.
hash=$(cat "$kernel" "$initramfs" <(printf '%s' "$cmdline") | sha256sum | cut -c1-8)
stamp=$((946684800 + 16#$hash % 3155760000))
iso_date=$(date -u -d "@$stamp" +%Y%m%d%H%M%S00)
grub_uuid=$(date -u -d "@$stamp" +%Y-%m-%d-%H-%M-%S-00)

# grub.cfg: each command-line word single-quoted, so GRUB neither expands '$' nor splits it.
quoted=''
read -r -a words <<<"$cmdline"
for w in "${words[@]}"; do
  quoted+="${quoted:+ }'${w//\'/\'\\\'\'}'"
done
tmpl=$(<"$root/images/grub.cfg")
printf '%s\n' "${tmpl//@CMDLINE@/"$quoted"}" >"$work/grub.cfg"

# The embedded first-stage config of both GRUB images: find the ISO, read its grub.cfg.
cat >"$work/embed.cfg" <<CFG
search --no-floppy --fs-uuid --set=root $grub_uuid
set prefix=(\$root)/boot/grub
configfile \$prefix/grub.cfg
CFG

# Modules are built into the images (no /boot/grub/<platform> module tree on the ISO):
# reading the ISO and finding it, the menu and its commands, the serial terminal, the Linux
# loader. grub-mkimage adds their dependencies.
common=(iso9660 part_msdos part_gpt search search_fs_uuid normal configfile linux echo test serial terminal)
grub-mkimage -O i386-pc-eltorito -C xz -p /boot/grub -c "$work/embed.cfg" \
  -o "$work/eltorito.img" biosdisk "${common[@]}"
# efi_gop/efi_uga let the kernel inherit a framebuffer, so console=tty0 shows on the screen.
grub-mkimage -O x86_64-efi -p /boot/grub -c "$work/embed.cfg" \
  -o "$work/BOOTX64.EFI" fat efi_gop efi_uga "${common[@]}"

# The El Torito EFI image: FAT12 just big enough for BOOTX64.EFI (+64 KiB for FAT metadata),
# with a fixed volume id (--invariant must precede -i, or it resets the id). mtools takes
# file dates from SOURCE_DATE_EPOCH, in local time and not before 1980 (FAT's epoch; 1970 would
# wrap around to 2098), hence TZ=UTC and the clamp.
kib=$(($(stat -c %s "$work/BOOTX64.EFI") / 1024 + 64))
mkfs.vfat -C --invariant -i 4b45454c -n KEEL-EFI "$work/efi.img" "$kib" >/dev/null
fat_epoch=$((SOURCE_DATE_EPOCH > 315532800 ? SOURCE_DATE_EPOCH : 315532800))
export MTOOLS_SKIP_CHECK=1
SOURCE_DATE_EPOCH=$fat_epoch TZ=UTC mmd -i "$work/efi.img" ::/EFI ::/EFI/BOOT
SOURCE_DATE_EPOCH=$fat_epoch TZ=UTC mcopy -i "$work/efi.img" "$work/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI

# The install assets (with a UKI only): see the top of this file.
install=()
if [[ -n $uki ]]; then
  KEEL_GRUB_LIB=$grub_lib "$root/scripts/grub-bios.sh" "$work/install"
  printf '%s\n' "$cmdline" >"$work/install/cmdline"
  install=(
    keel/install/keel.efi="$uki"
    keel/install/systemd-bootx64.efi="$sd_boot"
    keel/install/boot.img="$work/install/boot.img"
    keel/install/core.img="$work/install/core.img"
    keel/install/cmdline="$work/install/cmdline"
  )
fi
for l in ${layers[@]+"${layers[@]}"}; do install+=("keel/$(basename "$l")=$l"); done

mkdir -p "$(dirname "$out")"
# xorriso in mkisofs emulation, with grub-mkrescue's boot options. -r normalises owners and
# modes. Volume dates follow SOURCE_DATE_EPOCH except the modification date, which GRUB reads
# as the UUID. File dates would still come from the inputs' inodes (xorriso 1.5.4 ignores
# --set_all_file_dates for grafted files), so the native -alter_date_r that follows the
# emulated arguments sets every node's dates before the image is written.
xorriso -as mkisofs -quiet -graft-points -r -V KEEL \
  --modification-date="$iso_date" \
  -b boot/grub/eltorito.img -no-emul-boot -boot-load-size 4 -boot-info-table \
  --grub2-boot-info --grub2-mbr "$grub_lib/i386-pc/boot_hybrid.img" \
  -eltorito-alt-boot -e boot/grub/efi.img -no-emul-boot \
  -efi-boot-part --efi-boot-image --protective-msdos-label \
  -o "$out.tmp" \
  boot/vmlinuz="$kernel" \
  boot/initramfs="$initramfs" \
  boot/grub/grub.cfg="$work/grub.cfg" \
  boot/grub/eltorito.img="$work/eltorito.img" \
  boot/grub/efi.img="$work/efi.img" \
  ${install[@]+"${install[@]}"} \
  -- -alter_date_r b "=$SOURCE_DATE_EPOCH" / --
mv -f "$out.tmp" "$out"
