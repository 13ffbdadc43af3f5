#!/usr/bin/env bash
# What the README's two commands cost on this machine, from a fresh clone (nothing of this checkout's node_modules
# is touched): the first command (`npm ci -w june --ignore-scripts`, the build of June, the offline example's turn) and the test
# command's install (`npm ci`: every workspace and the test-only packages), each its wall time and the size of
# node_modules after it. npm's cache is whatever this machine has (a first install ever also downloads).
#
#   bash bench/install.sh [REF]        # REF: the commit to clone (default HEAD)
#
# The figures in the README and in bench/README.md ("The README's commands") come from this script.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-HEAD}
dir=$(mktemp -d "${TMPDIR:-/tmp}/june-install-XXXXXX")
trap 'rm -rf "$dir"' EXIT
git clone -q "$repo" "$dir/june"
git -C "$dir/june" checkout -q "$(git -C "$repo" rev-parse "$ref")"
cd "$dir/june"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }
mb() { du -sm node_modules | cut -f1; }
# The README's fenced `sh` blocks, in order: the first command, then the test command.
block() { awk -v n="$1" '/^```sh$/ { i++; inside = (i == n); next } /^```$/ { inside = 0 } inside' README.md; }

first=$(block 1)
timed='npm ci -w june --ignore-scripts && npm run build -w june && npx june ask examples/offline.tsx "Deploy the docs to staging"'
if [ "$first" != "$timed" ]; then
  echo "the README's first command is now: $first" >&2
  echo "bench/install.sh times: $timed (update it)" >&2
  exit 1
fi
echo "first command: $first"
t0=$(now)
npm ci -w june --ignore-scripts --no-audit --no-fund >/dev/null 2>&1
t1=$(now)
installed=$(mb)
npm run build -w june >/dev/null 2>&1
t2=$(now)
# The example's turn, with no terminal to answer its approval (denied: "no one to approve").
npx june ask examples/offline.tsx "Deploy the docs to staging" </dev/null >/dev/null 2>&1
t3=$(now)
echo "  npm ci -w june --ignore-scripts:     $(secs "$t0" "$t1") s, node_modules $installed MB"
echo "  npm run build -w june: $(secs "$t1" "$t2") s"
echo "  npx june ask:          $(secs "$t2" "$t3") s"
echo "  the first command:     $(secs "$t0" "$t3") s, $installed MB"

tests=$(block 2)
[ "${tests%% && *}" = "npm ci" ] || { echo "the README's test command no longer starts with npm ci: $tests (update bench/install.sh)" >&2; exit 1; }
echo "test command's install: npm ci (of: $tests)"
t4=$(now)
npm ci --no-audit --no-fund >/dev/null 2>&1
t5=$(now)
echo "  npm ci:                $(secs "$t4" "$t5") s, node_modules $(mb) MB ($(( $(mb) - installed )) MB more)"
echo "($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), Node $(node -v), npm $(npm -v))"
