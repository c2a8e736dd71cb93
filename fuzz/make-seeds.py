#!/usr/bin/env python3
"""Writes fuzz/seeds/<target>/ from the real captures, the golden vectors, the shipped configuration
and real payloads (run once; the output is committed). Each seed is small: the fuzzer mutates from
there. See fuzz/seeds/README.md for where each came from."""
import json, os, struct, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
caps = os.path.join(root, "Tests/Fixtures/captures")
seeds = os.path.join(root, "fuzz/seeds")

def put(target, name, data):
    os.makedirs(os.path.join(seeds, target), exist_ok=True)
    with open(os.path.join(seeds, target, name), "wb") as f:
        f.write(data)

# hci: the annotated vectors of Tests/BeaconWireTests/HCIVectors.swift (iBeacon, iPhone, no H4 byte,
# legacy and extended reports, Eddystone UID/TLM/URL, AltBeacon AD, Command Complete, a command).
vectors = {
    "ibeacon": "043E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3",
    "iphone": "043E2202010001433EA2C96B6A1602011A020A0C0FFF4C000F06A033BD08C5001002440CC4",
    "bare": "3E2A02010001433EA2C96B6A1E02011A1AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000640000C5B3",
    "legacy2": "043E190202030066554433221103020106C80401F6E5D4C3B2C1007F",
    "legacy3": "043E280203030066554433221103020106C80401F6E5D4C3B2C1007F0000010203040506050409616263A6",
    "ext2": "043E350D021300006655443322110100FF7FC800000000000000000003020106210001F6E5D4C3B2C1030205F4B01000010A0B0C0D0E0F00",
    "eddyuid": "043E2902010001C17C1CCBB1EB1D0201060303AAFE1516AAFE00EBEDD1EBEAC04E5DEFA017EBB1CB1C7CC1D0",
    "eddytlm": "043E2502010301C17C1CCBB1EB190201060303AAFE1116AAFE20000B6D20C000061B1700437CB8D5",
    "eddyurl": "043E2402010301C17C1CCBB1EB180201060303AAFE1016AAFE10E502676F2E657374692E6265CA",
    "alt": "1BFF1801BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C500",
    "cmdcompl": "040E0401030C00",
    "reset": "01030C00",
}
for name, hex_ in vectors.items():
    put("hci", name, bytes.fromhex(hex_))

def btsnoop_records(path, limit):
    data = open(path, "rb").read()
    datalink = struct.unpack(">I", data[12:16])[0]
    at, out = 16, []
    while at + 24 <= len(data) and len(out) < limit:
        orig, incl, flags, drops, ts = struct.unpack(">IIIIq", data[at:at + 24])
        out.append((flags, ts, data[at + 24:at + 24 + incl]))
        at += 24 + incl
    return data[:16], datalink, out

# btsnoop: the first records of both real Android captures (whole records, under 2 KiB).
for name in ["csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log", "wangdalian-btsnooper_ext-adv_btsnoop_hci.log"]:
    head, datalink, records = btsnoop_records(os.path.join(caps, name), 1000)
    body, n = b"", 0
    for flags, ts, pkt in records:
        rec = struct.pack(">IIIIq", len(pkt), len(pkt), flags, 0, ts) + pkt
        if len(head) + len(body) + len(rec) > 2048:
            break
        body += rec
    put("btsnoop", name.split("_")[0][:20], head + body)

# pcap: the same real records re-laid out as pcap (LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR, 201), as
# Wireshark writes them: a 4-byte direction pseudo-header, then the H4 packet.
head, datalink, records = btsnoop_records(os.path.join(caps, "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log"), 20)
pcap = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 201)
for flags, ts, pkt in records:
    usec = ts - 0x00DCDDB30F2F8000
    phdr = struct.pack(">I", flags & 1)
    pcap += struct.pack("<IIII", usec // 1_000_000, usec % 1_000_000, len(pkt) + 4, len(pkt) + 4) + phdr + pkt
put("pcap", "csacca-201", pcap)
pcap187 = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 187)
for flags, ts, pkt in records[:8]:
    usec = ts - 0x00DCDDB30F2F8000
    pcap187 += struct.pack("<IIII", usec // 1_000_000, usec % 1_000_000, len(pkt), len(pkt)) + pkt
put("pcap", "csacca-187", pcap187)

# pcapng: the head of the real Wireshark capture, cut at a block boundary.
data = open(os.path.join(caps, "csacca-horizon74_legacy-scanrsp-ibeacon.pcapng"), "rb").read()
at = 0
while at + 12 <= len(data):
    length = struct.unpack("<I", data[at + 4:at + 8])[0]
    if at + length > 2048 or length < 12:
        break
    at += length
put("pcapng", "csacca-head", data[:at])

# hcidump: the shared hcidump capture and the real hcidump --raw output of the decode tests.
put("hcidump", "goodystone", open(os.path.join(caps, "goodystone-estimote-eddystone_hcidump-raw.txt"), "rb").read())
put("hcidump", "lescan", open(os.path.join(root, "Tests/Fixtures/text/hcidump-raw-lescan.txt"), "rb").read())

# config: the shipped example (every section), and the configurations of docs/*.md's yaml blocks.
put("config", "example", open(os.path.join(root, "etc/beacon2mqtt.yaml"), "rb").read())
n = 0
for doc in sorted(os.listdir(os.path.join(root, "docs"))):
    text = open(os.path.join(root, "docs", doc)).read()
    for block in text.split("```yaml")[1:]:
        body = block.split("```")[0].lstrip("\n")
        if body.strip():
            n += 1
            put("config", f"{doc[:-3]}-{n}", body.encode())

# layer: a selector byte (bit 0 fleet/gateway, bit 1 the other layer set first; see fuzz/LayerFuzz.swift)
# and a payload: the layers of docs/configuration.md and docs/topics.md's json blocks that are layers, and
# one of each refusal the issue lists (bad JSON, bad YAML, unknown key, wrong type, restart-only key).
layers = []
for doc in ("configuration.md", "topics.md"):
    text = open(os.path.join(root, "docs", doc)).read()
    for block in text.split("```json")[1:]:
        body = block.split("```")[0].strip()
        if body.startswith('{"regions"') or body.startswith('{"beacons"') or body.startswith('{"locator"'):
            layers.append(body)
for i, body in enumerate(layers):
    put("layer", f"docs-{i + 1}", bytes([i & 3]) + body.encode())
put("layer", "beacons-list", b"\0" + b'{"beacons":[{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":2,"name":"keys"}]}')
put("layer", "per-item-yaml", b"\1" + b"regions:\n  lab:\n    uuid: f7826da6-4fa2-4e98-8024-bc5b71e0893e\n  zone: null\ngateway:\n  room: kitchen\n")
put("layer", "run-time-keys", b"\2" + b'{"log_level":"debug","telemetry":{"enabled":true,"interval":"30s"},"locator":{"enabled":true,"min_dwell":"5s"},"devices":[{"name":"phone","address":"aa:bb:cc:dd:ee:ff"}]}')
put("layer", "bad-json", b"\0" + b'{"beacons": [')
put("layer", "bad-yaml", b"\1" + b"regions:\n  - name: a\n   uuid: x\n")
put("layer", "unknown-key", b"\0" + b'{"monitoring":{"exit_timout":"5s"}}')
put("layer", "wrong-type", b"\3" + b'{"ranging":{"interval":"fast"}}')
put("layer", "restart-only", b"\0" + b'{"mqtt":{"port":1884},"scanner":{"adapter":"hci1"}}')
put("layer", "anchors", b"\1" + b"x: &a {port: 1}\nmqtt: *a\n")
put("layer", "remove", b"\0")
# The first finding of the target: a null document merged over the file replaced all of it.
put("layer", "null-document", b"\2~")
# The second: an empty key (" ?") refused as "unknown key" without naming it.
put("layer", "empty-key", b"  ?")

# mqtt: kind byte + a real payload of what `replay --output jsonl` makes of the real capture.
binary = os.path.join(root, ".build/debug/beacon2mqtt")
capture = os.path.join(caps, "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log")
lines = subprocess.run([binary, "replay", capture, "--output", "jsonl"], capture_output=True, text=True).stdout.splitlines()
wanted = {"proximity": 0, "event": 1, "attributes": 4, "state": 5}
taken = set()
for line in lines:
    m = json.loads(line)
    leaf = m["topic"].rsplit("/", 1)[-1]
    if leaf in wanted and leaf not in taken:
        taken.add(leaf)
        payload = m["payload"] if isinstance(m["payload"], str) else json.dumps(m["payload"], separators=(",", ":"))
        put("mqtt", leaf, bytes([wanted[leaf]]) + payload.encode())
        put("mqtt", leaf + "-topic", bytes([7]) + m["topic"].replace("/vm/", "/gw1/").encode() + b"\0" + payload.encode())
put("mqtt", "location", bytes([2]) + b'{"gateway":"A","floor":"1","room":"hall","accuracy":2,"since":"2024-05-01T12:00:01.000Z","confidence":0.71,"state":"home","last_seen":"2024-05-01T12:00:00.500Z"}')
put("mqtt", "status-online", bytes([3]) + b"online")
put("mqtt", "status-offline", bytes([3]) + b"offline")
put("mqtt", "stats", bytes([6]) + b'{"uptime":12,"reports_per_s":3.5,"beacons_tracked":2,"messages_published":40,"queued":0,"dropped":0,"reconnects":1,"degraded":false}')
print("seeds:", {t: len(os.listdir(os.path.join(seeds, t))) for t in sorted(os.listdir(seeds))})

# foreign: kind byte + each message of Tests/Fixtures/foreign (ESPresense from its firmware's source,
# OpenMQTTGateway from its docs), and a Theengs-decoded iBeacon with its signed minor.
for name, kind in (("espresense", 0), ("openmqttgateway", 1)):
    with open(os.path.join(root, "Tests/Fixtures/foreign", name + ".txt"), "rb") as f:
        for n, line in enumerate(f.read().splitlines()):
            topic, _, payload = line.partition(b" ")
            put("foreign", "%s-%d" % (name, n), bytes([kind]) + payload)
            put("foreign", "%s-%d-topic" % (name, n), bytes([3]) + topic + b"\0" + payload)
put("foreign", "status-espresense", bytes([6]) + b"offline")
put("foreign", "status-omg", bytes([2]) + b"online")
put("foreign", "theengs-signed-minor", bytes([1]) + b'{"id":"A4:C1:38:BF:6F:AB","rssi":-49,"brand":"GENERIC","model":"iBeacon","model_id":"IBEACON","type":"BCON","mfid":"4c00","uuid":"494e54454c4c495f524f434b535f4857","major":20594,"minor":-3329,"txpower":-62}')
put("foreign", "theengs-eddystone", bytes([1]) + b'{"id":"EB:B1:CB:1C:7C:C1","rssi":-59,"servicedatauuid":"feaa","servicedata":"00ededd1ebeac04e5defa017ebb1cb1c7cc10000"}')
