#!/usr/bin/env python3
"""Peer decode benchmark: the same HCI workload as `beacon2mqtt-bench decode`, through
bluetooth-data-tools, the fastest Python BLE advertisement parser (Home Assistant's).

The timed path is what a Python gateway must do per HCI event: strip the HCI LE Advertising
Report header (Core Spec Vol 4, Part E, 7.7.65.2; little-endian fields), parse the AD data with the
library's public `parse_advertisement_data_bytes` (cached by the library itself, which helps the
repetitive streams), and extract the iBeacon fields (big-endian) from Apple's manufacturer data.

Input: files of packets, each a little-endian uint16 length then the bytes (H4 indicator first).
Output: one JSON object per stream on stdout, with the same checksum the Swift bench computes.
Usage: bench_peer.py --reps N --min-seconds S NAME=FILE ...
"""
import json
import statistics
import sys
import time

from bluetooth_data_tools import parse_advertisement_data_bytes

MASK = (1 << 64) - 1
APPLE = 0x004C


def load(path):
    data = open(path, "rb").read()
    packets, offset = [], 0
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 2], "little")
        packets.append(data[offset + 2:offset + 2 + length])
        offset += 2 + length
    return packets


def decode(packets, sink):
    """Decodes every packet; `sink` receives (address, rssi, uuid, major, minor, power)."""
    reports = 0
    for pkt in packets:
        if len(pkt) < 5 or pkt[0] != 0x04 or pkt[1] != 0x3E or pkt[3] != 0x02:
            continue
        offset = 5
        for _ in range(pkt[4]):
            length = pkt[offset + 8]
            data_start = offset + 9
            data_end = data_start + length
            if data_end + 1 > len(pkt):
                break
            reports += 1
            apple = parse_advertisement_data_bytes(pkt[data_start:data_end])[3].get(APPLE)
            if apple is not None and len(apple) >= 23 and apple[0] == 0x02 and apple[1] == 0x15:
                power = apple[22]
                rssi = pkt[data_end]
                sink((
                    int.from_bytes(pkt[offset + 2:offset + 8], "little"),
                    rssi - 256 if rssi > 127 else rssi,
                    apple[2:18],
                    (apple[18] << 8) | apple[19],
                    (apple[20] << 8) | apple[21],
                    power - 256 if power > 127 else power,
                ))
            offset = data_end + 1
    return reports


def checksum(packets):
    """The DecodeTally digest of the Swift bench, computed outside the timed path."""
    found = []
    reports = decode(packets, found.append)
    h = 0
    for address, rssi, uuid, major, minor, power in found:
        high = int.from_bytes(uuid[:8], "big")
        low = int.from_bytes(uuid[8:], "big")
        h = (h * 31) & MASK
        h = (h + (address ^ high ^ low)) & MASK
        h = (h + ((major << 16) | minor)) & MASK
        h = (h + (rssi & MASK) + ((power & MASK) * 3)) & MASK
    return reports, len(found), (h + reports * 1_000_003 + len(found)) & MASK


def main(argv):
    reps, min_seconds, streams = 7, 0.2, []
    args = iter(argv)
    for arg in args:
        if arg == "--reps":
            reps = int(next(args))
        elif arg == "--min-seconds":
            min_seconds = float(next(args))
        else:
            name, _, path = arg.partition("=")
            streams.append((name, load(path)))
    for name, packets in streams:
        reports, ibeacons, digest = checksum(packets)
        last = []
        sink = last.append
        # Calibrate passes per repetition, then time `reps` repetitions and keep the median.
        passes = 1
        while True:
            start = time.thread_time_ns()
            for _ in range(passes):
                last.clear()
                decode(packets, sink)
            elapsed = time.thread_time_ns() - start
            if elapsed >= min_seconds * 1e9 / 4:
                passes = max(1, int(passes * min_seconds * 1e9 / elapsed + 0.999))
                break
            passes *= 4
        times = []
        for _ in range(reps):
            start = time.thread_time_ns()
            for _ in range(passes):
                last.clear()
                decode(packets, sink)
            times.append(time.thread_time_ns() - start)
        median = statistics.median(times)
        print(json.dumps({
            "stream": name, "reports": reports, "ibeacons": ibeacons, "checksum": str(digest),
            "ns_per_report": median / (passes * len(packets)), "passes": passes,
        }), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
