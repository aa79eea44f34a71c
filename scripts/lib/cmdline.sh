# shellcheck shell=bash
# Sourced by the image scripts. keel_cmdline FILE prints the kernel command line kept in FILE:
# comment lines ('#' as the first non-blank character) and blank lines are dropped, leading and
# trailing blanks trimmed, and the rest joined with single spaces, with no trailing newline.
# A one-line file cannot carry comments otherwise, and the .cmdline section and grub.cfg
# must both see exactly the same string.
keel_cmdline() {
  local file=$1 line out=''
  local -a words
  [[ -r $file ]] || { echo "cmdline: cannot read $file" >&2; return 1; }
  while IFS= read -r line || [[ -n $line ]]; do
    line=${line%$'\r'}
    # trim leading and trailing whitespace
    line=${line#"${line%%[![:space:]]*}"}
    line=${line%"${line##*[![:space:]]}"}
    [[ -z $line || $line == \#* ]] && continue
    # collapse inner runs of blanks so the result does not depend on the file's layout
    read -r -a words <<<"$line"
    out+="${out:+ }${words[*]}"
  done <"$file"
  [[ -n $out ]] || { echo "cmdline: $file holds no parameters" >&2; return 1; }
  printf '%s' "$out"
}
