#!/bin/sh
# Fuzz the BeaconWire decoders with libFuzzer + AddressSanitizer.
# Usage: scripts/fuzz.sh [seconds]   (default 60)
# Builds fuzz/bin/decoder-fuzz from Sources/BeaconWire/*.swift + fuzz/DecoderFuzz.swift,
# seeds fuzz/corpus from the golden vectors and the capture fixtures, then runs for N seconds.
# Findings (crash-*, leak-*, timeout-*) land in fuzz/bin/. fuzz/bin and fuzz/corpus are git-ignored.
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-60}"
mkdir -p fuzz/bin fuzz/corpus

swiftc -sanitize=fuzzer,address -parse-as-library -O -g \
    -swift-version 6 -enable-upcoming-feature MemberImportVisibility \
    -module-name BeaconWireFuzz \
    Sources/BeaconWire/*.swift fuzz/DecoderFuzz.swift \
    -o fuzz/bin/decoder-fuzz

seed() { printf '%s' "$2" | xxd -r -p > "fuzz/corpus/seed-$1"; }
# HCI events (see Tests/BeaconWireTests/HCIVectors.swift for the byte-by-byte annotations)
seed ibeacon  043E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3
seed iphone   043E2202010001433EA2C96B6A1602011A020A0C0FFF4C000F06A033BD08C5001002440CC4
seed bare     3E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3
seed legacy2  043E190202030066554433221103020106C80401F6E5D4C3B2C1007F
seed legacy3  043E280203030066554433221103020106C80401F6E5D4C3B2C1007F0000010203040506050409616263A6
seed ext2     043E350D021300006655443322110100FF7FC800000000000000000003020106210001F6E5D4C3B2C1030205F4B01000010A0B0C0D0E0F00
seed eddyuid  043E2902010001C17C1CCBB1EB1D0201060303AAFE1516AAFE00EBEDD1EBEAC04E5DEFA017EBB1CB1C7CC1D0
seed eddytlm  043E2502010301C17C1CCBB1EB190201060303AAFE1116AAFE20000B6D20C000061B1700437CB8D5
seed eddyurl  043E2402010301C17C1CCBB1EB180201060303AAFE1016AAFE10E502676F2E657374692E6265CA
seed alt      1BFF1801BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C500
seed cmdcompl 040E0401030C00
seed reset    01030C00
# Capture containers: the heads of the real captures (the fuzzer mutates from there).
for f in Tests/Fixtures/captures/*.log Tests/Fixtures/captures/*.pcapng Tests/Fixtures/captures/goodystone-*.txt; do
    head -c 2048 "$f" > "fuzz/corpus/seed-capture-$(basename "$f" | cut -c1-24)"
done

ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
    fuzz/bin/decoder-fuzz fuzz/corpus -max_total_time="$seconds" -max_len=4096 \
    -artifact_prefix=fuzz/bin/ -print_final_stats=1
