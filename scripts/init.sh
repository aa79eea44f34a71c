#!/usr/bin/env bash
# Builds the initramfs programs: OUTDIR/stage1 (the real /init) and OUTDIR/floor (the boot benchmark's
# /init), static musl binaries, and OUTDIR/prefault.so, the glibc shared object stage 1 preloads into
# machined (it goes into the root filesystem). All stripped; the same sources give the same bytes
# wherever they are built.
# usage: scripts/init.sh OUTDIR
set -euo pipefail

(($# == 1)) || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/src/init

command -v musl-gcc >/dev/null && command -v gcc >/dev/null || "$(dirname "${BASH_SOURCE[0]}")/host-packages.sh" image

mkdir -p "$out"
out=$(cd "$out" && pwd)
for prog in stage1 floor; do
  # build next to the target and rename, so a failed or concurrent build never leaves a torn binary;
  # cd into the sources so no absolute path of this checkout can reach the output
  (cd "$src" && musl-gcc -static -Os -Wall -Wextra -Werror -s -o "$out/.$prog.tmp.$$" "$prog.c") ||
    { rm -f "$out/.$prog.tmp.$$"; exit 1; }
  mv -f "$out/.$prog.tmp.$$" "$out/$prog"
done
# only mprotect is exported: nothing else of it may shadow a symbol of machined's libraries
(cd "$src" && gcc -shared -fPIC -fvisibility=hidden -O2 -Wall -Wextra -Werror -s -o "$out/.prefault.so.tmp.$$" prefault.c) ||
  { rm -f "$out/.prefault.so.tmp.$$"; exit 1; }
mv -f "$out/.prefault.so.tmp.$$" "$out/prefault.so"
