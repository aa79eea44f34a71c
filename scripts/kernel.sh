#!/usr/bin/env bash
# Builds Keel's kernel and caches it outside the work tree, keyed by (source version, config hash).
# Prints the cached bzImage's path; a cache hit costs nothing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../kernel-config/source.env
source "$root/kernel-config/source.env"

"$root/scripts/host-packages.sh" kernel

cache=${KEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/keel}
version=$(dpkg-query -W -f='${Version}' "$KERNEL_SOURCE_PACKAGE")
hash=$(cat "$root/kernel-config/source.env" "$root"/kernel-config/*.config | sha256sum | cut -c1-16)
out="$cache/kernel/$version-$hash"
if [[ -f $out/bzImage ]]; then
  echo "$out/bzImage"
  exit 0
fi

mkdir -p "$cache/kernel"
work=$(mktemp -d "$cache/kernel/.build-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "kernel: building $KERNEL_SOURCE_PACKAGE $version, config $hash (about 15-20 min on 2 cores)" >&2
tar -xf "$KERNEL_SOURCE_TARBALL" -C "$work" --strip-components=1
cp "$root"/kernel-config/*.config "$work/kernel/configs/"
fragments=$(cd "$root/kernel-config" && ls ./*.config | xargs -n1 basename | tr '\n' ' ')
export KBUILD_BUILD_TIMESTAMP='1970-01-01' KBUILD_BUILD_USER=keel KBUILD_BUILD_HOST=keel
make -C "$work" -s "$KERNEL_BASE_DEFCONFIG" $KERNEL_BASE_FRAGMENTS $fragments >&2

# Every line of our fragments must survive olddefconfig; a silent drop (unmet dependency)
# would ship a kernel without something a node needs.
node "$root/scripts/kernel-config-check.mjs" "$work/.config" "$root"/kernel-config/*.config >&2

make -C "$work" -s -j"$(nproc)" bzImage >&2
mkdir -p "$out.partial"
cp "$work/arch/x86/boot/bzImage" "$work/.config" "$out.partial/"
make -C "$work" -s kernelrelease > "$out.partial/kernel.release"
rm -rf "$out"
mv "$out.partial" "$out"
echo "$out/bzImage"
