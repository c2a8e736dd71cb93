#!/bin/bash
# libFuzzer + AddressSanitizer targets (docs/testing.md, "Fuzzing").
# Usage: scripts/fuzz.sh [--runs N | --seconds S] [target …]
#   targets: hci btsnoop pcap pcapng hcidump config layer mqtt foreign (default: all, one after another)
#   --runs N     stop each target after N executions (the figures in docs/testing.md use 10000000)
#   --seconds S  stop each target after S seconds (default 60)
#   --timeout S  an input that runs longer than S seconds of wall time is a finding (default 10; a
#                long campaign niced on a loaded machine needs more: libFuzzer's clock is the wall's)
# The pure modules a target needs are compiled with -sanitize=fuzzer,address into .build/fuzz/, the
# target's fuzz/*Fuzz.swift is linked against them. The corpus starts from fuzz/seeds/<target>/ (in
# the repo: real captures, vectors, configurations, payloads) and grows in .build/fuzz/corpus/<target>.
# Findings (crash-*, leak-*, timeout-*) land in .build/fuzz/findings/<target>/; the script fails then.
# A summary line per target: "fuzz <target>: <runs> runs in <s> s, <n> crashes".
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
limit=(-max_total_time=60)
timeout=10
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
    --runs) limit=(-runs="$2"); shift 2 ;;
    --seconds) limit=(-max_total_time="$2"); shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=(hci btsnoop pcap pcapng hcidump config layer mqtt foreign)

out=.build/fuzz
mkdir -p "$out/modules"
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6
    -enable-upcoming-feature MemberImportVisibility -package-name beacon2mqtt -I "$out/modules" -I Sources/CYAML)

# module NAME [IMPORTED...]: one instrumented object and .swiftmodule, rebuilt when a source is
# newer, or a module it imports was rebuilt since (a type's layout may have changed under it).
module() {
    local name=$1 object="$out/modules/$1.o"
    shift
    local sources imported stale=""
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    [ -f "$object" ] || stale=1
    [ -n "$stale" ] || [ -z "$(find "Sources/$name" -name '*.swift' -newer "$object")" ] || stale=1
    for imported in "$@"; do [ "$out/modules/$imported.o" -nt "$object" ] && stale=1; done
    [ -n "$stale" ] || return 0
    echo "fuzz: compiling $name" >&2
    swiftc "${flags[@]}" -module-name "$name" -wmo -num-threads 0 -c "${sources[@]}" \
        -emit-module -emit-module-path "$out/modules/$name.swiftmodule" -o "$object"
    # swiftc leaves an output that came out the same untouched: stamp the build.
    touch "$object"
}

# target NAME → modules it links and the -D flag of its source.
build() {
    local name=$1 source=() defines=() modules=(Vocabulary BeaconWire) libs=()
    case "$name" in
    hci) source=fuzz/HCIDecoderFuzz.swift ;;
    btsnoop | pcap | pcapng | hcidump) source=fuzz/CaptureFuzz.swift; defines=(-D "$(tr a-z A-Z <<<"$name")") ;;
    config) source=(fuzz/ConfigFuzz.swift fuzz/YAMLLineCount.swift); modules=(Vocabulary BeaconWire BeaconCore Settings BeaconConfig); libs=(-lyaml) ;;
    layer) source=(fuzz/LayerFuzz.swift fuzz/YAMLLineCount.swift); modules=(Vocabulary BeaconWire BeaconCore Settings BeaconConfig); libs=(-lyaml) ;;
    mqtt) source=fuzz/InboundMQTTFuzz.swift; modules=(Vocabulary BeaconWire BeaconCore Settings MessageContract) ;;
    foreign) source=fuzz/ForeignFuzz.swift; modules=(Vocabulary BeaconWire BeaconCore Settings MessageContract) ;;
    *) echo "fuzz: unknown target '$name'" >&2; exit 64 ;;
    esac
    local before=()
    for m in "${modules[@]}"; do
        module "$m" "${before[@]}"
        before+=("$m")
    done
    local objects=()
    for m in "${modules[@]}"; do objects+=("$out/modules/$m.o"); done
    swiftc "${flags[@]}" "${defines[@]}" -module-name "Fuzz_$name" "${source[@]}" "${objects[@]}" -lm "${libs[@]}" \
        -o "$out/$name-fuzz" 2> >(grep -v "Cannot export local symbol" >&2)
}

status=0
for t in "${targets[@]}"; do
    build "$t"
    mkdir -p "$out/corpus/$t" "$out/findings/$t"
    log="$out/$t.log"
    start=$(date +%s)
    # -rss_limit_mb: ASan's shadow plus libFuzzer's corpus; -timeout: one input never takes a second
    # of CPU, so the default 10 s of wall time only trips when the input hangs (or the fuzzer starves).
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" "$out/$t-fuzz" "$out/corpus/$t" "fuzz/seeds/$t" \
        "${limit[@]}" -max_len=4096 -timeout="$timeout" -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$out/findings/$t/" >"$log" 2>&1 || true
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    crashes=$(find "$out/findings/$t" -type f | wc -l)
    echo "fuzz $t: ${runs:-0} runs in $(($(date +%s) - start)) s, $crashes findings (log $log)"
    if [ "$crashes" -gt 0 ] || [ -z "$runs" ]; then status=1; tail -30 "$log" >&2; fi
done
exit $status
