#!/usr/bin/env bash
# Builds the stock talosctl (the wire-compatibility judge of the test suite) from its published Go
# module and caches it outside the work tree, keyed by (talos version, Go version, this script).
# Prints the cached binary's path; a cache hit costs nothing. Nothing of talosctl's source is committed.
#
# talos' go.mod carries replace directives (forks, and its nested pkg/machinery module), which
# `go install mod@version` refuses; so a throw-away wrapper module requires talos and repeats them, with
# talos' own go.sum (some forks are not in the checksum database, but their sums are in talos' go.sum).
# One fork is not served by the module proxy: github.com/smira/containerd/v2 (containerd's 2.2 branch
# plus one dead-code-elimination commit, no API change); the wrapper takes the containerd/v2 version
# talos requires instead.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${TALOSCTL_VERSION:-v1.13.0}

command -v go >/dev/null || {
  echo "talosctl: the go command (1.21 or later) is required to build the test tool talosctl" >&2
  exit 1
}
cache=${KEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/keel}
gover=$(go env GOVERSION)
key=$(printf '%s\n' "$version" "$gover" | cat - "$0" | sha256sum | cut -c1-16)
out="$cache/talosctl/$version-$key"
if [[ -x $out/talosctl ]]; then
  echo "$out/talosctl"
  exit 0
fi

mkdir -p "$cache/talosctl"
# one build at a time: two test runs starting cold would otherwise race on the same output directory
exec 9>"$cache/talosctl/.lock"
flock 9
if [[ -x $out/talosctl ]]; then
  echo "$out/talosctl"
  exit 0
fi
work=$(mktemp -d "$cache/talosctl/.build-XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "talosctl: building $version with $gover (a few minutes on 2 cores, once)" >&2
# talos names its Go release in go.mod; an older go (1.21 or later) fetches that toolchain itself
export GOFLAGS=-mod=mod CGO_ENABLED=0

# The replaces of talos' own go.mod, read from the module itself so that a version bump carries its own.
go mod download -json "github.com/siderolabs/talos@$version" > "$work/talos.json"
talosdir=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).Dir' "$work/talos.json")
talosmod=$talosdir/go.mod
cd "$work"
go mod init keel.test/talosctl >/dev/null 2>&1
node - "$talosmod" "$version" >> go.mod <<'JS'
const fs = require('node:fs');
const [mod, version] = process.argv.slice(2);
const text = fs.readFileSync(mod, 'utf8');
const lines = [];
for (const m of text.matchAll(/^replace\s*\(([\s\S]*?)^\)/gm)) lines.push(...m[1].split('\n'));
for (const m of text.matchAll(/^replace\s+([^(\n].*)$/gm)) lines.push(m[1]);
const unserved = new Set(['github.com/containerd/containerd/v2']);
const out = [];
for (const raw of lines) {
  const line = raw.replace(/\/\/.*$/, '').trim();
  if (!line) continue;
  const [from, to] = line.split('=>').map((s) => s.trim());
  if (unserved.has(from)) continue;
  // the nested module is published under its own path at the same version
  out.push(to.startsWith('./') ? `replace ${from} => ${from} ${version}` : `replace ${from} => ${to}`);
}
if (out.length === 0) throw new Error(`talosctl: no replace directives found in ${mod}`);
process.stdout.write(`${out.join('\n')}\n`);
JS
cat "$talosdir/go.sum" > go.sum
cat > tools.go <<GO
//go:build tools

package tools

import _ "github.com/siderolabs/talos/cmd/talosctl"
GO
go get "github.com/siderolabs/talos@$version" "github.com/siderolabs/talos/pkg/machinery@$version" >&2
go mod tidy >&2
mkdir -p "$out.partial"
go build -trimpath -tags grpcnotrace -ldflags '-s -w' -o "$out.partial/talosctl" github.com/siderolabs/talos/cmd/talosctl >&2
"$out.partial/talosctl" version --client >&2
rm -rf "$out"
mv "$out.partial" "$out"
echo "$out/talosctl"
