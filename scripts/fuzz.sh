#!/usr/bin/env bash
# Fuzzes HTTPRequestParser with libFuzzer (see Fuzz/Package.swift and docs/BENCHMARKS.md).
# usage: scripts/fuzz.sh [SECONDS=180] [extra libFuzzer flags...]
# Builds Fuzz/ in release with -sanitize=fuzzer,address (scratch path Fuzz/.build-fuzz-asan), then runs on a
# copy of the seed corpus Fuzz/corpus; crashes land in Fuzz/findings/ (turn each into a regression test).
set -euo pipefail
seconds=${1:-180}; shift || true
cd "$(dirname "$0")/../Fuzz"
swift build -c release --product HTTPParserFuzz --scratch-path .build-fuzz-asan \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp corpus/* "$work/"
mkdir -p findings
.build-fuzz-asan/release/HTTPParserFuzz "$work" -max_total_time="$seconds" -max_len=4096 \
  -artifact_prefix=findings/ -print_final_stats=1 "$@"
