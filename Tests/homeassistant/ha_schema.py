"""Checks discovery configs against the MQTT integration of the Home Assistant it runs with (in the
root of ha-root.sh, with that release's Python): `python ha_schema.py configs.json` reads
{topic: payload} and prints a JSON report.

For each config, as the release's own discovery does: abbreviations are expanded with its
discovery._replace_all_abbreviations (abbreviations.py), then the payload must pass
- the platform's PLATFORM_SCHEMA_MODERN (components/mqtt/<platform>.py), which unlike the
  DISCOVERY_SCHEMA that drops unknown keys refuses any key, in the config, its device, origin or
  availability, that the release does not know;
- its DISCOVERY_SCHEMA, with no warning logged while validating (deprecated or removed keys);
- and default_entity_id must be the id the release builds itself from the device's and entity's
  names (homeassistant.util.slugify), so releases that ignore the key give entities the same ids.
"""

import asyncio
import copy
import importlib
import json
import logging
import os
import sys

import probatio
from homeassistant.components.mqtt import discovery
from homeassistant.const import __version__
from homeassistant.core import HomeAssistant
from homeassistant.util import slugify


class Warnings(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record.getMessage())


def keys(payload):
    """Every key of the config, its device, origin and availability entries, as `device.name`."""
    out = set(payload)
    for section in ("device", "origin"):
        out |= {f"{section}.{k}" for k in payload.get(section) or {}}
    for entry in payload.get("availability") or []:
        out |= {f"availability.{k}" for k in entry}
    return out


def check(topic, payload, warnings):
    component = topic.split("/")[1]
    problems = []
    try:
        platform = importlib.import_module(f"homeassistant.components.mqtt.{component}")
    except ImportError:
        return [f"no MQTT platform {component} in this release"], set()
    expanded = copy.deepcopy(payload)
    discovery._replace_all_abbreviations(expanded)
    if expanded != payload:
        problems.append("abbreviated keys (expanded before checking)")
    for name in ("PLATFORM_SCHEMA_MODERN", "DISCOVERY_SCHEMA"):
        warnings.records.clear()
        try:
            getattr(platform, name)(copy.deepcopy(expanded))
        except probatio.Invalid as e:
            problems += [f"{name}: {error}" for error in getattr(e, "errors", [e])]
        problems += [f"{name} logged: {w}" for w in warnings.records]
    device = (expanded.get("device") or {}).get("name")
    name = expanded.get("name")
    if device and "default_entity_id" in expanded:
        want = f"{component}.{slugify(f'{device} {name}' if name else device)}"
        if expanded["default_entity_id"] != want:
            problems.append(f"default_entity_id {expanded['default_entity_id']}, the release builds {want}")
    return problems, keys(expanded)


async def main():
    # The schemas' template validator compiles each template in a Home Assistant's event loop, as
    # discovery does: an instance of the release, not started, is enough.
    HomeAssistant(os.path.dirname(os.path.abspath(sys.argv[1])))
    configs = json.load(open(sys.argv[1]))
    warnings = Warnings()
    logging.getLogger().addHandler(warnings)
    report = {"version": __version__, "configs": len(configs), "keys": set(), "problems": {}}
    for topic, payload in sorted(configs.items()):
        problems, seen = check(topic, payload, warnings)
        report["keys"] |= seen
        if problems:
            report["problems"][topic] = problems
    report["keys"] = sorted(report["keys"])
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
