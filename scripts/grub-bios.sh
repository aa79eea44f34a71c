#!/usr/bin/env bash
# grub-bios.sh OUT_DIR
#
# Builds what an install needs to boot a disk with BIOS through GRUB, so the node never runs
# grub-install (which would need GRUB's whole module tree in the image):
#   OUT_DIR/boot.img   GRUB's MBR boot code, as Debian ships it
#   OUT_DIR/core.img   GRUB's i386-pc core image with every module it needs built in
# The installer (src/install/grub.ts) writes boot.img into LBA 0 and core.img into the BIOS boot
# partition, and patches their sector pointers as grub-bios-setup does.
#
# core.img's prefix is (,gpt3)/grub: the boot disk's third partition, BOOT in every layout that has
# GRUB (EFI, BIOS, BOOT, META as upstream's), whose grub/grub.cfg the normal module reads at once.
# Modules: BIOS disks and GPT, xfs (BOOT), the menu and its commands, the Linux loader, the serial
# terminal; grub-mkimage adds their dependencies. Same inputs give the same bytes.
#
# Environment: KEEL_GRUB_LIB (GRUB's platform directories, default /usr/lib/grub).
set -euo pipefail

usage() { echo "usage: $0 OUT_DIR" >&2; exit 2; }
[[ $# -eq 1 ]] || usage
out=$1
grub_lib=${KEEL_GRUB_LIB:-/usr/lib/grub}
[[ -f $grub_lib/i386-pc/boot.img ]] || { echo "grub-bios: $grub_lib/i386-pc missing (grub-pc-bin)" >&2; exit 1; }

mkdir -p "$out"
trap 'rm -f "$out/core.img.tmp" "$out/boot.img.tmp"' EXIT
modules=(biosdisk part_gpt xfs normal configfile linux echo test search serial terminal)
grub-mkimage -O i386-pc -C xz -p '(,gpt3)/grub' -o "$out/core.img.tmp" "${modules[@]}"
cp "$grub_lib/i386-pc/boot.img" "$out/boot.img.tmp"
mv -f "$out/core.img.tmp" "$out/core.img"
mv -f "$out/boot.img.tmp" "$out/boot.img"
