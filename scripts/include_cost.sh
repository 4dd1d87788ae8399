#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Include cost: compile time (g++ -O2, median of 5) and preprocessed line count of a translation unit
# that includes minkowski/world.h, side by side with one that includes Box2D v3's box2d/box2d.h
# compiled as C++ (each measured as C++17 and as C++20, interleaved so load affects both alike).
#
#   bash scripts/include_cost.sh /path/to/box2d/include
#
# Box2D's headers are read from the folder given (e.g. `git archive HEAD include | tar -x -C /tmp/b2`
# from a clone of github.com/erincatto/box2d); nothing of Box2D is copied into this project.
set -euo pipefail
box2d_include=${1:?usage: include_cost.sh BOX2D_INCLUDE_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
cxx=${CXX:-g++}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#include "minkowski/world.h"\nint main() { return 0; }\n' > "$work/minkowski.cpp"
printf '#include "box2d/box2d.h"\nint main() { return 0; }\n' > "$work/box2d.cpp"
flags_minkowski=(-I"$here/engine/include")
flags_box2d=(-I"$box2d_include")

# Seconds of one compile (wall clock, to the millisecond).
compile_seconds() {
  local source=$1 std=$2
  shift 2
  local start end
  start=$(date +%s%N)
  "$cxx" -std="$std" -O2 -c "$work/$source" -o "$work/out.o" "$@"
  end=$(date +%s%N)
  echo "scale=3; ($end - $start) / 1000000000" | bc
}

median() { sort -n | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }

printf '| header | standard | preprocessed lines | compile time, median of 5 (s) |\n'
printf '| --- | --- | ---: | ---: |\n'
for std in c++17 c++20; do
  : > "$work/times_minkowski"
  : > "$work/times_box2d"
  for _ in 1 2 3 4 5; do
    compile_seconds minkowski.cpp "$std" "${flags_minkowski[@]}" >> "$work/times_minkowski"
    compile_seconds box2d.cpp "$std" "${flags_box2d[@]}" >> "$work/times_box2d"
  done
  lines_minkowski=$("$cxx" -std="$std" -O2 -E "$work/minkowski.cpp" "${flags_minkowski[@]}" | wc -l)
  lines_box2d=$("$cxx" -std="$std" -O2 -E "$work/box2d.cpp" "${flags_box2d[@]}" | wc -l)
  printf '| minkowski/world.h | %s | %s | %s |\n' "$std" "$lines_minkowski" "$(median < "$work/times_minkowski")"
  printf '| box2d/box2d.h (as C++) | %s | %s | %s |\n' "$std" "$lines_box2d" "$(median < "$work/times_box2d")"
done
