"""The captures `make test-ha` replays (`run --replay`, at capture speed), written when they are
replayed so their clock is the wall clock. README's gateway replays write_ibeacon's; gateway C
replays write's:

- a phone whose IRK and resolvable private addresses come from `beacon2mqtt irk generate`: one
  report a second, from a new address every ROTATE seconds (three rotations);
- two strangers' RPAs (another key's, not configured), one report a second each: counted as
  unresolved, never published;
- the Estimote beacon of Tests/Fixtures/captures/goodystone-estimote-eddystone_hcidump-raw.txt,
  its real Eddystone-UID and -TLM events (2925 mV, 32.75 °C) byte for byte, re-timed: the UID
  every second, the TLM every 5 s.

btsnoop v1, datalink 1002 (H4), as BtsnoopWriter writes it."""

import re
import struct
import subprocess

SECONDS = 80
ROTATE = 20
BTSNOOP_EPOCH_US = 0x00DCDDB30F2F8000  # µs from 0000-01-01 to 1970-01-01
ESTIMOTE = {"namespace": "edd1ebeac04e5defa017", "instance": "ebb1cb1c7cc1", "battery_mv": 2925,
            "temperature": 32.75}


def irk_generate(binary, irk=None, count=1):
    """(irk hex, [addresses]) from `beacon2mqtt irk generate`."""
    argv = [binary, "irk", "generate", "--count", str(count)] + (["--irk", irk] if irk else [])
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
    key = re.search(r"^irk\s+([0-9a-f]{32})$", out, re.M)
    return (key.group(1) if key else irk), re.findall(r"^address\s+(\S+)$", out, re.M)


def hcidump_events(path):
    """The packets of an `hcidump --raw` text file, as bytes."""
    events, current = [], None
    for line in open(path):
        if line.startswith(">") or line.startswith("<"):
            current = bytearray()
            events.append(current)
            line = line[1:]
        if current is not None:
            current.extend(bytes.fromhex(line.strip()))
    return [bytes(e) for e in events]


def report(address, ad, rssi, event_type=0):
    """One LE Advertising Report event (Core Spec Vol 4, Part E, 7.7.65.2), H4, random address."""
    addr = bytes(reversed(bytes.fromhex(address.replace(":", ""))))
    body = bytes([0x02, 0x01, event_type, 0x01]) + addr + bytes([len(ad)]) + ad + struct.pack("b", rssi)
    return bytes([0x04, 0x3E, len(body)]) + body


def record(unix_us, packet):
    flags = 0b11  # received, command or event
    return struct.pack(">IIIIq", len(packet), len(packet), flags, 0, unix_us + BTSNOOP_EPOCH_US) + packet


def save(path, packets):
    """(unix µs, packet) pairs as a btsnoop file, in time order."""
    with open(path, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for t, p in sorted(packets, key=lambda p: p[0]):
            f.write(record(t, p))


def write(path, binary, estimote_fixture, start_unix):
    """Writes the capture; returns the phone's IRK, its addresses and the number of strangers' reports."""
    irk, phone = irk_generate(binary, count=SECONDS // ROTATE)
    _, strangers = irk_generate(binary, count=2)
    uid, _, tlm = hcidump_events(estimote_fixture)[:3]
    assert uid[27:37] == bytes.fromhex(ESTIMOTE["namespace"]) and tlm[27:29] == b"\x0b\x6d", "not the Estimote capture's UID and TLM events"
    phone_ad = bytes.fromhex("0201 1a 07ff4c0010020b00".replace(" ", ""))  # flags + Apple "nearby", as phones send
    packets = []
    for s in range(SECONDS):
        t = int((start_unix + s) * 1_000_000)
        packets.append((t, report(phone[s // ROTATE], phone_ad, -62)))
        for k, stranger in enumerate(strangers):
            packets.append((t + 200_000 + k * 100_000, report(stranger, phone_ad, -80)))
        packets.append((t + 500_000, uid))
        if s % 5 == 1:
            packets.append((t + 700_000, tlm))
    save(path, packets)
    return irk, phone, SECONDS * len(strangers)


def write_ibeacon(path, binary, irk, identity, estimote_fixture, start_unix, seconds=60):
    """README's beacon and phone: the iBeacon `identity` (uuid, major, minor) every second from one
    static address, with the Estimote capture's real TLM event moved to that address every 5 s
    (so its battery and temperature are this beacon's), and the phone of `irk` from one RPA."""
    _, phone = irk_generate(binary, irk=irk)
    uuid, major, minor = identity
    address = "c0:ff:ee:00:01:01"
    ad = (bytes.fromhex("020106" "1aff4c000215") + bytes.fromhex(uuid.replace("-", ""))
          + struct.pack(">HHb", major, minor, -59))
    _, _, tlm = hcidump_events(estimote_fixture)[:3]
    tlm = tlm[:7] + bytes(reversed(bytes.fromhex(address.replace(":", "")))) + tlm[13:]
    phone_ad = bytes.fromhex("02011a07ff4c0010020b00")  # as in write()
    packets = []
    for s in range(seconds):
        t = int((start_unix + s) * 1_000_000)
        packets.append((t, report(phone[0], phone_ad, -60)))
        packets.append((t + 300_000, report(address, ad, -58)))
        if s % 5 == 1:
            packets.append((t + 600_000, tlm))
    save(path, packets)
