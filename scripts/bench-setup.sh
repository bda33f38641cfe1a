# Sourced by the scripts/pair-*.sh benchmarks after their argument checks (not run on its own): the release binary
# (TOKENVEND_BIN, else `swift build -c release --product tokenvend`) as $tv, a warning when the machine is busy, a
# temporary folder $work removed on exit with every process whose id the benchmark adds to $pids, and no inherited
# TOKENVEND_* variable (such as TOKENVEND_BIN), which the server would take for a key.
if [[ -z "${TOKENVEND_BIN:-}" ]]; then
  swift build -c release --product tokenvend >/dev/null
  TOKENVEND_BIN="$(swift build -c release --show-bin-path)/tokenvend"
fi
tv=$(readlink -f "$TOKENVEND_BIN")
load=$(cut -d' ' -f1 /proc/loadavg)
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 1.5 else 1)" "$load"; then
  echo "warning: load average $load > 1.5: something else is running (a build?); the figures will be off" >&2
fi
work=$(mktemp -d); pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
for name in $(env | awk -F= '/^TOKENVEND_/ {print $1}'); do unset "$name"; done

# Prints the medians of two series of rates and the median of their paired ratios B/A against a target:
# report_ratio NAME_A NAME_B RATIO_NAME UNIT TARGET "A rates" "B rates" (rates space-separated, round by round).
report_ratio() {
  python3 - "$@" <<'PY'
import statistics, sys
name_a, name_b, ratio_name, unit, target = sys.argv[1:6]
a = [float(x) for x in sys.argv[6].split()]; b = [float(x) for x in sys.argv[7].split()]
ratios = [y / x for x, y in zip(a, b)]
ratio = statistics.median(ratios)
verdict = "meets" if ratio >= float(target) else "MISSES"
print(f"median {name_a} {statistics.median(a):.0f} {unit}, {name_b} {statistics.median(b):.0f} {unit}, "
      f"ratio {ratio_name} {ratio:.2f} (min {min(ratios):.2f}, max {max(ratios):.2f}) — {verdict} the {target} target")
PY
}
