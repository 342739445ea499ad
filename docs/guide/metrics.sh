#!/usr/bin/env bash
# Regenerates the tables and plots of docs/guide/metrics.md: the `metrics` report of
# the original (wordle) and NYT lists, normal and hard mode, into
# docs/guide/metrics-report.md, and its plots into docs/guide/img/ (PNG).
# Usage, from anywhere in the checkout: bash docs/guide/metrics.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin=target/release/wordle-tree
img=docs/guide/img
out=docs/guide/metrics-report.md
mkdir -p "$img"
{
    echo "# The metrics report, as generated"
    echo
    echo "Written by \`bash docs/guide/metrics.sh\` (do not edit by hand); read with"
    echo "[the metrics chapter](metrics.md). Timings are left out so that the file only"
    echo "changes when the figures do."
    for list in wordle nyt; do
        for mode in normal hard; do
            flag=""
            if [ "$mode" = hard ]; then flag="--hard"; fi
            echo
            echo "## $list lists, $mode mode"
            echo
            echo '```text'
            echo "\$ wordle-tree --list $list $flag metrics" | tr -s ' '
            "$bin" --list "$list" $flag --quiet metrics \
                --plot "$img/metrics-$list-$mode.png" \
                --plot-totals "$img/totals-$list-$mode.png" \
                --plot-depths "$img/depths-$list-$mode.png" \
                --tree "trees/salet.$mode.$list.tree" 2>/dev/null | grep -v '^time '
            echo '```'
        done
    done
} > "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out and $img/{metrics,totals,depths}-{wordle,nyt}-{normal,hard}.png"
