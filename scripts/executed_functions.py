#!/usr/bin/env python3
"""Prints the functions of BINARY that ran in callgrind profiles, for lld's --symbol-ordering-file.

Usage: executed_functions.py BINARY LINKMAP PROFILE...   (LINKMAP from lld -Map for BINARY; profiles
from valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no). Every
executed instruction address in BINARY is mapped to the function (and the aliases at its address)
that contains it; the functions of the first profile come first, then the new ones of each further
profile. Addresses are taken rather than callgrind's names because several symbols can share one
function's code. Functions the link map shows inside a shared `.text` section (objects built
without one section per function: the Swift runtime's Swift.o, _Concurrency.o, …) go last: lld
moves such a section whole, to the place of its first listed function, and a 1.6 MiB section in
the middle would split the hot code in two.
"""
import bisect
import re
import subprocess
import sys


def functions(binary):
    """(start, size, names) of every defined text symbol, sorted by address."""
    by_address = {}
    out = subprocess.run(["nm", "-S", "-n", "--defined-only", binary], capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "tTwW":
            start, size = int(fields[0], 16), int(fields[1], 16)
            entry = by_address.setdefault(start, [0, []])
            entry[0] = max(entry[0], size)
            entry[1].append(fields[3])
    return sorted((start, size, names) for start, (size, names) in by_address.items())


def executed_addresses(profile, binary_name):
    """Instruction addresses callgrind attributed to the object named binary_name."""
    addresses, current = set(), None
    with open(profile, errors="replace") as text:
        for line in text:
            if line.startswith("ob="):
                current = line[3:].strip()
            elif line.startswith("0x") and current and current.rsplit("/", 1)[-1] == binary_name:
                addresses.add(int(line.split()[0], 16))
    return addresses


def shared_sections(link_map):
    """(start, end) of every input section named plain `.text` in an lld -Map file."""
    spans = []
    line_format = re.compile(r"\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s+\S.*:\(\.text\)$")
    with open(link_map, errors="replace") as text:
        for line in text:
            match = line_format.match(line.rstrip())
            if match:
                start = int(match.group(1), 16)
                spans.append((start, start + int(match.group(2), 16)))
    return sorted(spans)


def main():
    binary, link_map, profiles = sys.argv[1], sys.argv[2], sys.argv[3:]
    spans = shared_sections(link_map)
    span_starts = [start for start, _ in spans]

    def in_shared_section(address):
        i = bisect.bisect_right(span_starts, address) - 1
        return i >= 0 and address < spans[i][1]

    table = functions(binary)
    starts = [start for start, _, _ in table]
    name = binary.rsplit("/", 1)[-1]
    seen, ordered, last = set(), [], []
    for profile in profiles:
        hit = set()
        for address in executed_addresses(profile, name):
            i = bisect.bisect_right(starts, address) - 1
            if i >= 0 and address < table[i][0] + max(table[i][1], 1):
                hit.add(i)
        for i in sorted(hit - seen):
            (last if in_shared_section(table[i][0]) else ordered).extend(table[i][2])
        seen |= hit
    if not ordered:
        sys.exit(f"executed_functions: no executed function of {name} in {profiles}")
    print("\n".join(ordered + last))


if __name__ == "__main__":
    main()
