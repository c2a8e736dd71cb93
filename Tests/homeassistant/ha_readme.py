"""README's Home Assistant section, run as written (a mixin of test_ha's Scenario): its gateway
configuration (step 2) with the locator (step 3), then as a single gateway (step 2 without
`gateway_entities`, no locator), each replaying a capture of README's beacon (with Eddystone-TLM
from the same address) and the phone, against the same Home Assistant with the earlier scenario's
entities gone. Every entity id the section shows must exist in one of the two. The configuration
and the ids are read from README.md itself, so README cannot drift from what the agent does."""

import asyncio
import os
import re
import time

import ha_capture

ENTITY_ID = re.compile(r"\b(?:device_tracker|sensor|binary_sensor|event)\.[a-z0-9_]+\b")


def section(readme):
    text = open(readme).read()
    start = text.index("\n## Home Assistant\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def configurations(text):
    """README's step 2 and step 3 blocks (the YAML blocks that are not Home Assistant's own)."""
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if not b.startswith("automation:")]
    if len(blocks) != 2:
        raise ValueError(f"README's Home Assistant section has {len(blocks)} configuration blocks, not 2")
    return blocks


class ReadmeChecks:
    async def readme_entities(self, session, readme="README.md"):
        check = self.results.check
        text = section(readme)
        shown = sorted(set(ENTITY_ID.findall(text)))
        step2, step3 = configurations(text)
        beacon = re.search(r"uuid: ([0-9a-f-]{36}), major: (\d+), minor: (\d+)", step2)
        irk_file = re.search(r"irk_file: (\S+)", step2)
        ok = check("README's Home Assistant section shows entity ids and a gateway configuration with a beacon "
                   "and a phone's irk_file", len(shown) >= 5 and beacon is not None and irk_file is not None,
                   f"{shown}")
        if not ok:
            return
        # The earlier scenario's agents stop and their configs go, so README's ids are free again.
        for name in ("gateway-B", "gateway-A", "locator"):
            self.processes.stop(name)
        self.broker.clear(self.broker.retained("homeassistant/#"))
        self.broker.clear(self.broker.retained("beacons/#"))
        await self.ha.wait_for(session, lambda s: not any(e.split(".")[0] in ("device_tracker", "event")
                                                            for e in s), 30)
        key = os.path.join(self.work, "readme-phone.irk")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(self.phone_irk + "\n")
        mqtt = f"mqtt:\n  host: 127.0.0.1\n  port: {self.mqtt_port}\n"
        with_locator = step2.replace(irk_file.group(1), key) + step3 + mqtt
        single = re.sub(r"\n *gateway_entities:[^\n]*", "", step2.replace(irk_file.group(1), key)) + mqtt
        identity = (beacon.group(1), int(beacon.group(2)), int(beacon.group(3)))
        seen = {}
        for variant, config in (("with the locator", with_locator), ("as a single gateway", single)):
            path = os.path.join(self.work, "readme.yaml")
            with open(path, "w") as f:
                f.write(config)
            capture = os.path.join(self.work, "readme.btsnoop")
            ha_capture.write_ibeacon(capture, self.bin, self.phone_irk, identity, os.path.abspath(self.args.estimote),
                                     time.time() + 2)
            self.processes.start("readme", [self.bin, "run", "--config", path, "--replay", capture, "--speed", "1"])
            states = await self.settled(session, shown)
            present = {e: states[e]["state"] for e in shown if e in states}
            print(f"        README's configuration {variant}: {present}", flush=True)
            seen.update(present)
            if variant == "with the locator":
                check("README's configuration with the locator places Keys and the phone in its room",
                      present.get("device_tracker.keys") == "hall" and present.get("device_tracker.alice_phone") == "hall",
                      f"{present}")
            if variant == "as a single gateway":
                enter = states.get("event.keys_hall_enter_exit", {}).get("attributes", {})
                check("the gateway's enter event carries its room, floor and gateway",
                      enter.get("event_type") == "enter" and enter.get("room") == "hall"
                      and "floor" in enter and enter.get("gateway"), f"{enter}")
            self.processes.stop("readme")
            self.broker.clear(self.broker.retained("homeassistant/#"))
        check("README's configuration creates every entity id README shows",
              set(shown) <= set(seen), f"missing: {sorted(set(shown) - set(seen))}")

    async def settled(self, session, shown, timeout=45, still=6):
        """The states once README's ids present have stayed the same for `still` seconds and every
        tracker among them has a state (its room, home or not_home)."""
        deadline = time.monotonic() + timeout
        last, since, states = None, time.monotonic(), {}
        while time.monotonic() < deadline:
            states = await self.ha.states(session)
            present = {e for e in shown if e in states}
            trackers = [e for e in present if e.startswith("device_tracker.")]
            if present != last:
                last, since = present, time.monotonic()
            elif (present and time.monotonic() - since >= still
                  and all(states[e]["state"] not in ("unknown", "unavailable") for e in trackers)):
                break
            await asyncio.sleep(0.5)
        return states
