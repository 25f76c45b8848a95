#!/usr/bin/env bash
# Profiles which functions grundy runs, and writes link/often.ld from it
# (see link/README.md). Needs valgrind and python3; takes about ten minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Every benchmark workload, its size cut by 5 where it is large, and
# every example.
mkdir "$work/scripts"
for f in benches/workloads/*.game; do
    n=$(sed -n 's/^let N = \([0-9_]*\)$/\1/p' "$f" | tr -d _)
    if [ -n "$n" ] && [ "$n" -ge 1000 ]; then
        sed "s/^let N = .*/let N = $((n / 5))/" "$f" > "$work/scripts/$(basename "$f")"
    else
        cp "$f" "$work/scripts/$(basename "$f")"
    fi
done
for f in examples/*.game; do
    cp "$f" "$work/scripts/example-$(basename "$f")"
done

# Each run once under callgrind, with the binary `cargo build` makes and
# with the one `cargo bench` makes (its crates' features differ, and so
# what the compiler inlines). Only the benchmark is built, so that the
# map is of the one executable: the tests of `src/main.rs` link too.
args=()
for flavour in build bench; do
    mkdir "$work/$flavour"
    if [ "$flavour" = build ]; then
        GRUNDY_LINK_MAP="$work/$flavour/grundy.map" cargo build --release
    else
        GRUNDY_LINK_MAP="$work/$flavour/grundy.map" cargo bench --no-run --bench speed
    fi
    cp target/release/grundy "$work/$flavour/grundy"
    for f in "$work"/scripts/*.game; do
        echo "valgrind --tool=callgrind --demangle=no \
--callgrind-out-file=$work/$flavour/$(basename "$f").cg $work/$flavour/grundy run $f"
    done | xargs -P 2 -I{} sh -c '{} >/dev/null 2>&1 || true'
    args+=("$work/$flavour/grundy.map" "$work/$flavour")
done
python3 link/often.py link/often.ld "${args[@]}"
cargo build --release
