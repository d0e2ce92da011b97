#!/bin/sh
# Compile every test story source test/fixtures/*/*.inf to a Z-machine file beside it: v5 (.z5),
# or the version a first-line "!% -vN" switch asks for (N = 3, 4, 5 or 8; file .zN).
# Needs the Debian package inform6-compiler (binary `inform6`, Inform 6.41); the stories are
# library-free, and the Inform 6 library path is passed anyway so a future fixture may Include it.
# The compiled story files are committed; sources set `Serial` so rebuilds are byte-identical.
# Usage: scripts/build-test-stories.sh   (from any directory; exits non-zero on a compile error)
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
inform="${INFORM6:-inform6}"
library="${INFORM6_LIBRARY:-/usr/share/inform6/library}"

if ! command -v "$inform" >/dev/null 2>&1; then
  echo "build-test-stories: '$inform' not found (apt-get install inform6-compiler)" >&2
  exit 1
fi

count=0
for source in "$root"/test/fixtures/*/*.inf; do
  [ -e "$source" ] || continue
  dir="$(dirname "$source")"
  name="$(basename "$source" .inf)"
  version="$(sed -n '1s/^!% *-v\([3458]\).*/\1/p' "$source")"
  version="${version:-5}"
  echo "build-test-stories: $source -> $dir/$name.z$version"
  # -vN: Z-machine version; +include_path: library folder; -w: no warnings; -E1: Microsoft-style errors.
  (cd "$dir" && "$inform" "-v$version" -w -E1 "+include_path=$library" "$name.inf" "$name.z$version")
  count=$((count + 1))
done
echo "build-test-stories: compiled $count story file(s)"
