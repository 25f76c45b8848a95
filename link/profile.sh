#!/usr/bin/env bash
# Profiles which functions grundy runs, and writes link/often.ld from it
# (see link/README.md). Needs valgrind and python3; takes about ten minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is needed" >&2; exit 1; }
command -v python3 >/dev/null || { echo "profile.sh: python3 is needed" >&2; exit 1; }
target=${CARGO_TARGET_DIR:-target}
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

# One script run under callgrind: `profile BINARY SCRIPT OUT`.
profile() {
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$3" \
        "$1" run "$2" >/dev/null 2>&1 || true
}
export -f profile

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
    cp "$target/release/grundy" "$work/$flavour/grundy"
    for f in "$work"/scripts/*.game; do
        printf '%s\0%s\0%s\0' "$work/$flavour/grundy" "$f" "$work/$flavour/$(basename "$f").cg"
    done | xargs -0 -n 3 -P 2 bash -c 'profile "$@"' _
    runs=$(find "$work/$flavour" -name '*.cg' | wc -l)
    if [ "$runs" -lt 50 ]; then
        echo "profile.sh: only $runs runs profiled with the $flavour binary" >&2
        exit 1
    fi
    args+=("$work/$flavour/grundy.map" "$work/$flavour")
done
python3 link/often.py "$work/often.ld" "${args[@]}"
mv "$work/often.ld" link/often.ld
cargo build --release
