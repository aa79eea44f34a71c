#!/usr/bin/env bash
# Fetches Debian's chrony without installing it (installing would start a service that disciplines this
# host's clock) and caches the unpacked package outside the work tree, keyed by its version. The tests run
# that chronyd with -x (never touch the clock) as the real NTP server the time sync client talks to.
# Prints chronyd's path; a cache hit costs nothing but one apt-cache look-up.
set -euo pipefail

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
  echo "ntp-server: apt-get and dpkg-deb (a Debian host) are needed to fetch chrony" >&2
  exit 1
}
cache=${KEEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/keel}
version=$(apt-cache policy chrony | awk '/Candidate:/ { print $2 }')
if [[ -z $version || $version == "(none)" ]]; then
  echo "ntp-server: no chrony package in the apt lists (run apt-get update)" >&2
  exit 1
fi
out="$cache/chrony/$version"
bin="$out/usr/sbin/chronyd"
if [[ -x $bin ]]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$cache/chrony"
# one fetch at a time: two cold test runs would otherwise unpack over each other
exec 9>"$cache/chrony/.lock"
flock 9
if [[ -x $bin ]]; then
  echo "$bin"
  exit 0
fi
work=$(mktemp -d "$cache/chrony/.fetch-XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q "chrony=$version" >&2)
dpkg-deb -x "$work"/chrony_*.deb "$work/root"
missing=$(ldd "$work/root/usr/sbin/chronyd" | awk '/not found/ { print $1 }')
if [[ -n $missing ]]; then
  echo "ntp-server: chronyd $version needs libraries this host lacks: $missing" >&2
  exit 1
fi
"$work/root/usr/sbin/chronyd" -v >&2
rm -rf "$out"
mv "$work/root" "$out"
echo "$bin"
