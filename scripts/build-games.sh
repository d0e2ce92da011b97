#!/bin/sh
# Compile the teaching games games/<id>/<id>.inf (Inform 6 + standard library 6.12.6) to
# public/stories/<id>.z5, and record the addresses of the library's `score` and `turns` globals and
# the object number of the player (`selfobj`) in games/<id>/<id>.globals.json (read by
# scripts/build-catalog.mjs for the catalog's scoreRead / movesRead / playerObject). Needs the Debian package inform6-compiler (binary `inform6`, Inform 6.41) and its
# library (inform6-library, /usr/share/inform6/library). The sources set `Serial`, so rebuilds are
# byte-identical; the .z5 files and the .globals.json files are committed.
# Usage: scripts/build-games.sh   (from any directory; exits non-zero on a compile error)
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
inform="${INFORM6:-inform6}"
library="${INFORM6_LIBRARY:-/usr/share/inform6/library}"

if ! command -v "$inform" >/dev/null 2>&1; then
  echo "build-games: '$inform' not found (apt-get install inform6-compiler)" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Address of the global variable named $2 in the Inform debug file $1 (gameinfo.dbg, XML).
global_address() {
  grep -o "<global-variable><identifier>$2</identifier><address> *[0-9]*" "$1" \
    | sed 's/.*<address> *//' | head -n 1
}

# Object number of the object named $2 in the Inform debug file $1.
object_number() {
  grep -o "<object><identifier>$2</identifier><value> *[0-9]*" "$1" \
    | sed 's/.*<value> *//' | head -n 1
}

count=0
for source in "$root"/games/*/*.inf; do
  [ -e "$source" ] || continue
  name="$(basename "$source" .inf)"
  target="$root/public/stories/$name.z5"
  echo "build-games: $source -> $target"
  cp "$source" "$work/$name.inf"
  # -v5: Z-machine version 5; -w: no warnings; -E1: Microsoft-style errors; -k: write the debug
  # file gameinfo.dbg (symbol addresses; it does not change the story file).
  (cd "$work" && "$inform" -v5 -w -E1 -k "+include_path=$library" "$name.inf" "$name.z5")
  cp "$work/$name.z5" "$target"
  score="$(global_address "$work/gameinfo.dbg" score)"
  turns="$(global_address "$work/gameinfo.dbg" turns)"
  player="$(object_number "$work/gameinfo.dbg" selfobj)"
  if [ -z "$score" ] || [ -z "$turns" ] || [ -z "$player" ]; then
    echo "build-games: no score/turns global or selfobj object in the debug file of $name" >&2
    exit 1
  fi
  printf '{\n "about": "Byte addresses of the Inform library globals score and turns, and the object number of the player (selfobj), in public/stories/%s.z5 (from the compiler debug file; written by scripts/build-games.sh).",\n "score": %s,\n "turns": %s,\n "player": %s\n}\n' \
    "$name" "$score" "$turns" "$player" >"$(dirname "$source")/$name.globals.json"
  rm -f "$work/gameinfo.dbg"
  count=$((count + 1))
done
echo "build-games: compiled $count story file(s)"
