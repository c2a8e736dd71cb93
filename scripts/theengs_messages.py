#!/usr/bin/env python3
"""Theengs Gateway's MQTT messages for advertisements, made with the real Theengs decoder.

Reads one advertisement per line on stdin, as JSON: {"id": "AA:BB:CC:DD:EE:FF", "rssi": -60,
"manufacturerdata": "<hex>", "servicedata": {"feaa": "<hex>", ...}} (both data members optional).
Prints `<topic> <payload>` lines as Theengs Gateway publishes them (theengs/gateway
TheengsGateway/ble_gateway.py, `detection_callback` and `decode_advertisement`): one decode per
service data UUID (its 16-bit form as `servicedatauuid`), or one of the manufacturer data; a decoded
advertisement as the decoder's JSON, an undecoded one as it came in (`publish_all`). Topic:
home/TheengsGateway/BTtoMQTT/<id without colons>.

Used by TheengsDecoderTests (`make test-foreign`, which installs TheengsDecoder from PyPI into
.build/theengs-venv).
"""
import json
import sys

from TheengsDecoder import decodeBLE

TOPIC = "home/TheengsGateway/BTtoMQTT/"


def publish(message):
    print(TOPIC + message["id"].replace(":", "") + " " + json.dumps(message, separators=(",", ":")))


def decode(data_json):
    decoded = decodeBLE(json.dumps(data_json))
    if decoded:
        decoded = json.loads(decoded)
        if decoded.get("type") != "RMAC":
            publish(decoded)
    else:
        publish(data_json)


for line in sys.stdin:
    if not line.strip():
        continue
    adv = json.loads(line)
    base = {"id": adv["id"], "rssi": adv["rssi"]}
    if "manufacturerdata" in adv:
        base["manufacturerdata"] = adv["manufacturerdata"]
    services = adv.get("servicedata") or {}
    if services:
        for uuid, data in services.items():
            copy = dict(base)
            copy["servicedatauuid"] = uuid
            copy["servicedata"] = data
            decode(copy)
    elif "manufacturerdata" in base:
        decode(base)
