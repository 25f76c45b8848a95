#!/bin/sh
# Fills fuzz/corpus/pipeline with the repository's grundy sources: the
# examples, the ui tests, the language tests, and the entries typed in the
# REPL transcripts. Run it from anywhere; the corpus is not committed.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/fuzz/corpus/pipeline"
mkdir -p "$corpus"
for file in "$root"/examples/*.game "$root"/tests/ui/*.game; do
    # Ends only when the binary's watchdog kills the process, which the
    # fuzz target has not got: every run of it would be a timeout.
    [ "$(basename "$file")" = timeout_hard_stop.game ] && continue
    cp "$file" "$corpus/$(basename "$(dirname "$file")")-$(basename "$file")"
done
find "$root/tests/lang" -type f | while read -r file; do
    cp "$file" "$corpus/lang-$(basename "$file")"
done
for file in "$root"/tests/repl/*.txt; do
    sed -n -e 's/^grundy> //p' -e 's/^   \.\.\.> //p' "$file" \
        >"$corpus/repl-$(basename "$file" .txt).game"
done
# A script and, after the marker line, an expression to `eval`.
{
    cat "$root/examples/kayles.game"
    printf '#--- eval\nvalue(kayles(9) + kayles(4))\n'
} >"$corpus/eval-kayles.game"
echo "$(ls "$corpus" | wc -l) files in $corpus"
