#!/usr/bin/env bash
# Profiles which functions grundy runs, and writes link/often.ld from it
# (see link/README.md). Needs valgrind and python3; takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
GRUNDY_LINK_MAP="$work/grundy.map" cargo build --release

# Every benchmark workload, its size cut by 20 where it is large, and
# every example, each run once under callgrind.
for f in benches/workloads/*.game; do
    n=$(sed -n 's/^let N = \([0-9_]*\)$/\1/p' "$f" | tr -d _)
    if [ -n "$n" ] && [ "$n" -ge 1000 ]; then
        sed "s/^let N = .*/let N = $((n / 20))/" "$f" > "$work/$(basename "$f")"
    else
        cp "$f" "$work/$(basename "$f")"
    fi
done
i=0
for f in "$work"/*.game examples/*.game; do
    i=$((i + 1))
    echo "valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/$i.cg target/release/grundy run $f"
done | xargs -P 2 -I{} sh -c '{} >/dev/null 2>&1 || true'
python3 link/often.py link/often.ld "$work/grundy.map" "$work"/*.cg
cargo build --release
