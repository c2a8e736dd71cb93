"""The device checks of `make test-ha` (a mixin of its Scenario): the devices' links, the phone by
IRK, the Estimote's telemetry entities, and Keys' device page in HA's own frontend."""

import asyncio
import json
import os
import shutil

import ha_capture
import ha_screenshot
from ha_harness import state


class DeviceChecks:
    async def devices_stay_linked(self, session, when, devices=None):
        """Each beacon and the phone reached through the locator alone: A and C say via_device
        false, B has no gateway entities, so no config names another device and HA has nothing to
        flip to, whichever config it reads last."""
        if devices is None:
            (devices,) = await self.ha.ws(session, [{"type": "config/device_registry/list"}])
        names = {d["id"]: d["name"] for d in devices}
        via = {d["name"]: names.get(d.get("via_device_id")) for d in devices}
        self.results.check(
            f"beacons and the phone are reached through the locator {when}",
            all(via.get(n) == "beacon2mqtt locator L" for n in ("Keys", "Bike", "alice-phone")),
            f"{[(n, via.get(n)) for n in ('Keys', 'Bike', 'alice-phone')]}")

    async def phone_and_telemetry(self, session):
        """While C replays: the phone is a device_tracker (home at C, in the kitchen by the locator)
        across its address rotations; the Estimote's TLM shows as battery, temperature, low battery."""
        check = self.results.check
        e = ha_capture.ESTIMOTE
        wanted = {"device_tracker.alice_phone_kitchen": "home", "device_tracker.alice_phone": "kitchen",
                  "sensor.estimote_kitchen_battery": str(e["battery_mv"]),
                  "sensor.estimote_kitchen_temperature": str(e["temperature"]),
                  "binary_sensor.estimote_kitchen_low_battery": "off"}
        s = await self.ha.wait_for(session, lambda s: all(state(s, k) == v for k, v in wanted.items()), 40)
        s = s or await self.ha.states(session)
        check("the phone (IRK, rotating RPAs) is a device_tracker: home at C, in the kitchen by the locator",
              all(state(s, k) == wanted[k] for k in list(wanted)[:2]), f"{[(k, state(s, k)) for k in list(wanted)[:2]]}")
        check("the Estimote's TLM: battery 2925 mV, temperature 32.75 °C, low battery off",
              all(state(s, k) == wanted[k] for k in list(wanted)[2:]), f"{[(k, state(s, k)) for k in list(wanted)[2:]]}")
        battery = s.get("sensor.estimote_kitchen_battery", {}).get("attributes", {})
        temperature = s.get("sensor.estimote_kitchen_temperature", {}).get("attributes", {})
        low = s.get("binary_sensor.estimote_kitchen_low_battery", {}).get("attributes", {})
        check("with their device classes and units (voltage mV, temperature °C, problem)",
              (battery.get("device_class"), battery.get("unit_of_measurement"), battery.get("state_class"))
              == ("voltage", "mV", "measurement")
              and (temperature.get("device_class"), temperature.get("unit_of_measurement")) == ("temperature", "°C")
              and low.get("device_class") == "problem", f"{battery} {temperature} {low}")
        devices, entities = await self.ha.ws(
            session, [{"type": "config/device_registry/list"}, {"type": "config/entity_registry/list"}])
        by_name = {d["name"]: d for d in devices}
        check("the phone is a device of its own, a Bluetooth LE device (no iBeacon)",
              by_name.get("alice-phone", {}).get("model") == "Bluetooth LE device",
              f"{by_name.get('alice-phone', {}).get('model')}")
        registry = {r["entity_id"]: r for r in entities}
        telemetry = ["sensor.estimote_kitchen_battery", "sensor.estimote_kitchen_temperature",
                     "binary_sensor.estimote_kitchen_low_battery"]
        check("the telemetry entities are diagnostic, on the Estimote's device",
              all(registry.get(t, {}).get("entity_category") == "diagnostic"
                  and registry.get(t, {}).get("device_id") == by_name.get("Estimote", {}).get("id") for t in telemetry),
              f"{[(t, registry.get(t, {}).get('entity_category')) for t in telemetry]}")

    async def phone_left(self, session, since):
        """After C's capture: the tracker went home → not_home once, never away at a rotation, and C's
        stats counted the strangers' reports."""
        check = self.results.check
        c = self.processes.children.get("gateway-C")
        if c is not None:
            await asyncio.to_thread(c.wait, 60)
        history = await self.ha.history(session, "device_tracker.alice_phone_kitchen", since)
        moves = [v for i, v in enumerate(history) if i == 0 or history[i - 1] != v]
        print(f"        device_tracker.alice_phone_kitchen: {moves} over {ha_capture.SECONDS} s, "
              f"{len(self.phone_addresses)} addresses", flush=True)
        home = [v for v in moves if v in ("home", "not_home")]
        check("the phone's tracker went home once and not_home once, across its 3 address rotations",
              home == ["home", "not_home"], f"{moves}")
        stats = self.broker.retained("beacons/gateways/C/stats")
        payload = json.loads(next(iter(stats.values()), b"{}"))
        unresolved = payload.get("unresolved_private_addresses")
        print(f"        C's last stats: unresolved_private_addresses {unresolved} "
              f"(of {self.stranger_reports} strangers' reports)", flush=True)
        check("the gateway's stats count the strangers' unresolved private addresses",
              isinstance(unresolved, int) and 0 < unresolved <= self.stranger_reports, f"{payload}")

    async def screenshot(self, session):
        """Keys' device page from HA's own frontend, in headless Chromium."""
        check = self.results.check
        if ha_screenshot.chromium() is None:
            check("chromium is installed for the device-page screenshot (scripts/test-ha.sh installs it)", False)
            return
        (devices,) = await self.ha.ws(session, [{"type": "config/device_registry/list"}])
        keys = next((d for d in devices if d["name"] == "Keys"), {})
        png = os.path.join(self.work, "ha-device-keys.png")
        text, console = await ha_screenshot.capture(self.ha.url, f"/config/devices/device/{keys.get('id')}",
                                           self.ha.frontend_tokens, ["Keys", "Location change", "beacon2mqtt locator L"],
                                           png)
        size = os.path.getsize(png) if os.path.exists(png) else 0
        check("the frontend shows Keys' device page (its entities, reached through the locator)",
              text is not None and size > 20_000, f"{size} bytes; console: {console[-10:]}")
        if self.args.screenshot and text is not None:
            shutil.copyfile(png, self.args.screenshot)
            print(f"        screenshot written to {self.args.screenshot}", flush=True)
