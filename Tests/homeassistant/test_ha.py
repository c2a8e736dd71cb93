#!/usr/bin/env python3
"""`make test-ha`: beacon2mqtt against a real Home Assistant (docs/testing.md, "Home Assistant").

A private mosquitto on loopback, Home Assistant configured through files (configuration.yaml and an
MQTT config entry in .storage, discovery on) and onboarded through its own API (an owner, then a
long-lived token), two simulated gateways in different rooms (A hall, B office, one floor plan) and a
locator. Everything is asserted through HA's REST and websocket APIs and its recorder database:

  entities and devices · the locator's room tracker over a walk (moves, does not flap) · availability
  on SIGKILL and restart (no spurious enter) · rediscovery after an HA restart with the retained
  configs cleared · removal · no WARNING/ERROR about MQTT or discovery in HA's log · recorder rows
  per beacon per hour within docs/home-assistant.md's figures.

Runs on the host with the driver's venv (aiohttp, paho-mqtt); Home Assistant itself runs in the
Debian root of ha-root.sh (ha_harness.HomeAssistant), and so does the schema check (ha_schema.py).
Last line: "test-ha: N passed, M failed".
"""

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import aiohttp

sys.dont_write_bytecode = True  # no __pycache__ beside the test's modules
import ha_capture  # noqa: E402
from ha_devices import DeviceChecks  # noqa: E402
from ha_readme import ReadmeChecks  # noqa: E402
from ha_harness import Broker, HomeAssistant, Processes, Results, free_port, state, wait_port  # noqa: E402

UUID = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
# Telemetry entities (issue #15) come from every gateway whatever gateway_entities says; they are
# checked by their own tests and left out of the checks here.
TELEMETRY = re.compile(r"_(battery|temperature|low_battery)$")
# docs/home-assistant.md, "Recorder load": rows a beacon costs per hour, and per room change.
ROWS_STILL_BEACON_PER_HOUR = 20
ROWS_PER_ROOM_CHANGE = 6


class Scenario(DeviceChecks, ReadmeChecks):
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="beacon2mqtt-test-ha.")
        self.processes = Processes(self.work)
        self.results = Results()
        self.mqtt_port = free_port()
        self.broker = Broker(self.mqtt_port)
        self.ha = HomeAssistant(args.root, args.venv, self.mqtt_port, self.processes)
        self.bin = os.path.abspath(args.beacon2mqtt)
        self.plan = os.path.abspath(args.plan)
        self.moves = 0
        self.metrics_port = free_port()
        self.capture = os.path.join(self.work, "gateway-C.btsnoop")
        # Gateway C replays a phone (IRK from `irk generate`) and the real Estimote's TLM (ha_capture).
        self.phone_irk, self.phone_addresses, self.stranger_reports = ha_capture.write(
            self.capture, self.bin, os.path.abspath(args.estimote), time.time() + 3)

    def write_config(self, name, gateway_id, discovery=True, gateway_entities=None, via_device=None, extra="",
                     walkers=True):
        ha = "" if gateway_entities is None else f"  gateway_entities: {str(gateway_entities).lower()}\n"
        ha += "" if via_device is None else f"  via_device: {str(via_device).lower()}\n"
        walkers = (f"  - {{uuid: {UUID}, major: 1, minor: 1, name: Keys}}\n"
                   f"  - {{uuid: {UUID}, major: 1, minor: 2, name: Bike}}\n") if walkers else ""
        path = os.path.join(self.work, f"{name}.yaml")
        with open(path, "w") as f:
            f.write(
                f"""gateway:
  id: {gateway_id}
{extra}mqtt:
  host: 127.0.0.1
  port: {self.mqtt_port}
  stats_interval: 10s
  keepalive: 5s
monitoring:
  exit_timeout: 10s
homeassistant:
  discovery: {str(discovery).lower()}
{ha}devices:
  - {{name: alice-phone, irk: {self.phone_irk}}}
beacons:
{walkers}"""
            )
        return path

    def add_estimote(self, name):
        e = ha_capture.ESTIMOTE
        with open(os.path.join(self.work, f"{name}.yaml"), "a") as f:
            f.write(f"  - {{namespace: {e['namespace']}, instance: {e['instance']}, name: Estimote}}\n")

    def start_gateway(self, gw):
        self.processes.start(
            f"gateway-{gw}", [self.bin, "run", "--config", os.path.join(self.work, f"gateway-{gw}.yaml"), "--simulate",
                              "--floor-plan", self.plan, "--as-gateway", gw])

    async def run(self):
        check = self.results.check
        started = time.monotonic()
        with open(os.path.join(self.work, "mosquitto.conf"), "w") as f:
            f.write(f"listener {self.mqtt_port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
            if os.getuid() == 0:
                f.write("user root\n")
        self.processes.start("mosquitto", ["/usr/sbin/mosquitto", "-c", os.path.join(self.work, "mosquitto.conf")])
        assert wait_port(self.mqtt_port, 10), "mosquitto did not start"

        async with aiohttp.ClientSession() as session:
            self.ha.start()
            if not check("Home Assistant starts and serves its API", await self.ha.wait_up(session)):
                return
            await self.ha.onboard(session)
            check("an owner is onboarded and a long-lived token issued", bool(self.ha.token))
            check("Home Assistant finishes starting", await self.ha.wait_running(session))

            print(f"        Home Assistant {await self.ha.version(session)}", flush=True)
            # Gateway A adds its own entities to each beacon, but leaves via_device to the locator
            # (docs/home-assistant.md, "Devices"); B leaves both to the locator. C replays a phone
            # and an Estimote beacon in the kitchen (no via_device either: the locator names itself).
            self.write_config("gateway-A", "A", via_device=False,
                              extra=f"metrics:\n  listen: 127.0.0.1:{self.metrics_port}\n")
            self.write_config("gateway-B", "B", gateway_entities=False)
            self.write_config("gateway-C", "C", via_device=False, extra="  room: kitchen\n", walkers=False)
            self.add_estimote("gateway-C")
            self.write_config("locator", "L")
            self.start_gateway("A")
            self.start_gateway("B")
            self.processes.start("gateway-C", [self.bin, "run", "--config", os.path.join(self.work, "gateway-C.yaml"),
                                               "--replay", self.capture, "--speed", "1"])
            self.processes.start("locator", [self.bin, "locate", "--config", os.path.join(self.work, "locator.yaml")])
            phone_since = time.time()
            await self.entities_and_devices(session)
            self.discovery_schema()
            await self.phone_and_telemetry(session)
            walk = (time.time(), None)
            await self.walk(session)
            walk = (walk[0], time.time())
            await self.event_attributes(session)
            await self.screenshot(session)
            await self.phone_left(session, phone_since)
            await self.sigkill_and_restart(session)
            await self.restart_home_assistant(session)
            await self.devices_stay_linked(session, "after Home Assistant's restart")
            self.recorder_rows(*walk)
            await self.removal(session)
            await self.readme_entities(session)
            self.log_is_clean()
        print(f"test-ha: scenario took {time.monotonic() - started:.0f} s", flush=True)

    async def entities_and_devices(self, session):
        check = self.results.check
        wanted = [
            "device_tracker.keys", "sensor.keys_room", "sensor.keys_floor", "event.keys_location_change",
            "device_tracker.bike", "device_tracker.keys_hall", "sensor.keys_hall_proximity",
            "event.keys_hall_enter_exit", "device_tracker.bike_hall",
            "binary_sensor.beacon2mqtt_a_connectivity", "binary_sensor.beacon2mqtt_b_connectivity",
            "sensor.beacon2mqtt_a_reports_per_second", "sensor.beacon2mqtt_a_beacons_tracked",
            "sensor.beacon2mqtt_a_dropped_messages", "sensor.beacon2mqtt_a_started", "sensor.beacon2mqtt_a_scan_mode",
            "sensor.beacon2mqtt_a_adapter", "binary_sensor.beacon2mqtt_locator_l_connectivity",
        ]
        t0 = time.monotonic()
        states = await self.ha.wait_for(
            session, lambda s: all(state(s, e) not in (None, "unavailable") for e in wanted)
            and state(s, "device_tracker.keys") in ("hall", "office"), 60)
        check("discovery creates the entities with short ids, and they get states",
              states is not None, f"missing: {[e for e in wanted if state(states or {}, e) in (None, 'unavailable')]}")
        if states is None:
            states = await self.ha.states(session)
        print(f"        entities up {time.monotonic() - t0:.1f} s after the gateways started", flush=True)
        check("the gateways' B entities are not on the beacons (gateway_entities: false)",
              not any(e.startswith(("device_tracker.keys_office", "sensor.keys_office")) and not TELEMETRY.search(e)
                      for e in states))
        # The diagnostics read the stats, published every stats_interval (10 s here).
        stats = await self.ha.wait_for(
            session, lambda s: state(s, "sensor.beacon2mqtt_a_started") not in (None, "unknown", "unavailable"), 20)
        states = stats or states
        check("the scan mode and adapter sensors show the configuration",
              state(states, "sensor.beacon2mqtt_a_scan_mode") == "passive"
              and state(states, "sensor.beacon2mqtt_a_adapter") == "auto",
              f"{state(states, 'sensor.beacon2mqtt_a_scan_mode')}, {state(states, 'sensor.beacon2mqtt_a_adapter')}")
        started = state(states, "sensor.beacon2mqtt_a_started") or ""
        check("Started is a timestamp", re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:00\+00:00$", started) is not None, started)
        # The locator L measures gateway A's clock when it first hears it: on one host, a few ms.
        clocked = await self.ha.wait_for(
            session, lambda s: re.match(r"^-?\d+(\.\d+)?$", state(s, "sensor.beacon2mqtt_a_clock_offset") or ""), 20)
        offset = state(clocked or states, "sensor.beacon2mqtt_a_clock_offset")
        check("the Clock offset diagnostic shows what the locator measured of the gateway's clock",
              offset is not None and re.match(r"^-?\d+(\.\d+)?$", offset) is not None and abs(float(offset)) < 2,
              f"{offset}")

        devices, entities = await self.ha.ws(
            session, [{"type": "config/device_registry/list"}, {"type": "config/entity_registry/list"}])
        by_name = {d["name"]: d for d in devices}
        check("one device per beacon and per gateway and locator",
              {"Keys", "Bike", "beacon2mqtt A", "beacon2mqtt B", "beacon2mqtt locator L"} <= set(by_name),
              f"{sorted(by_name)}")
        keys = by_name.get("Keys", {})
        check("the beacon's device is identified by its UUID, major and minor",
              ["mqtt", f"beacon2mqtt_beacon_{UUID.replace('-', '')}_1_1"] in keys.get("identifiers", []),
              f"{keys.get('identifiers')}")
        check("a gateway's device is in its room's area, a beacon's in none",
              by_name.get("beacon2mqtt A", {}).get("area_id") == "hall" and keys.get("area_id") is None,
              f"A: {by_name.get('beacon2mqtt A', {}).get('area_id')}, Keys: {keys.get('area_id')}")
        via = {d["id"]: d["name"] for d in devices}
        check("a beacon is reached through a gateway or the locator",
              via.get(keys.get("via_device_id")) in ("beacon2mqtt A", "beacon2mqtt locator L"),
              f"{via.get(keys.get('via_device_id'))}")
        on_keys = sorted(e["entity_id"] for e in entities
                         if e["device_id"] == keys.get("id") and not TELEMETRY.search(e["entity_id"]))
        check("Keys' device holds the locator's and gateway A's entities",
              set(on_keys) >= set(["device_tracker.keys", "sensor.keys_room", "sensor.keys_floor",
                                 "event.keys_location_change", "device_tracker.keys_hall", "sensor.keys_hall_proximity",
                                 "sensor.keys_hall_distance", "event.keys_hall_enter_exit"])
              and not any("office" in e for e in on_keys), f"{on_keys}")
        registry = {e["entity_id"]: e for e in entities}
        check("distance is disabled by default",
              registry.get("sensor.keys_hall_distance", {}).get("disabled_by") == "integration")
        diagnostic = [e for e, r in registry.items()
                      if r.get("entity_category") == "diagnostic" and ".beacon2mqtt_" in e]
        check("the gateways' and locator's entities are diagnostic", len(diagnostic) == 3 * 9 + 1, f"{diagnostic}")
        check("a gateway with metrics.listen links to its /metrics as the device's configuration_url",
              by_name.get("beacon2mqtt A", {}).get("configuration_url")
              == f"http://127.0.0.1:{self.metrics_port}/metrics"
              and by_name.get("beacon2mqtt B", {}).get("configuration_url") is None,
              f"{by_name.get('beacon2mqtt A', {}).get('configuration_url')}")
        await self.devices_stay_linked(session, "at start", devices)

    async def walk(self, session, seconds=75):
        """Keys walks hall → office → hall every 60 s: its room tracker follows, without flapping."""
        check = self.results.check
        seen = []
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            s = await self.ha.states(session)
            value = state(s, "device_tracker.keys")
            if not seen or seen[-1][1] != value:
                seen.append((time.monotonic(), value, state(s, "sensor.keys_room")))
            await asyncio.sleep(0.5)
        rooms = [v for _, v, _ in seen]
        self.moves = len(rooms) - 1
        print(f"        device_tracker.keys over {seconds} s: {rooms}", flush=True)
        check("the locator's room tracker moves between the rooms", {"hall", "office"} <= set(rooms), f"{rooms}")
        # Two moves a minute in the plan: at most one change per move, and no room held for less than
        # 10 s (the belief engine has no dwell timer: only its evidence keeps a room).
        check("and does not flap", len(rooms) <= 4, f"{rooms}")
        held = [b[0] - a[0] for a, b in zip(seen, seen[1:])][1:]
        check("each room is held at least 10 s", all(h >= 9.5 for h in held), f"{held}")
        check("the room sensor says what the tracker says", all(r == v for _, v, r in seen[1:]), f"{seen}")
        attributes = (await self.ha.states(session)).get("device_tracker.keys", {}).get("attributes", {})
        # The nearest engine (the locator's default) names no likely rooms: the list is empty then.
        likely = attributes.get("rooms")
        check("the tracker carries the locator's confidence and likely rooms",
              isinstance(attributes.get("confidence"), (int, float)) and isinstance(likely, list)
              and all(r.get("room") and isinstance(r.get("probability"), (int, float)) for r in likely),
              f"{attributes}")
        s = await self.ha.states(session)
        check("the still beacon is home in the hall by gateway A, and in the hall by the locator",
              state(s, "device_tracker.bike_hall") == "home" and state(s, "device_tracker.bike") == "hall")

    def discovery_schema(self):
        """Every retained config against the MQTT schema of the running release (ha_schema.py, in the
        root): no key it does not know, no value it refuses, no warning, the ids it would build."""
        check = self.results.check
        configs = {t: json.loads(p) for t, p in self.broker.retained("homeassistant/#").items() if t.endswith("/config")}
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ha_schema.py"), self.ha.dir)
        with open(os.path.join(self.ha.dir, "discovery-configs.json"), "w") as f:
            json.dump(configs, f)
        run = subprocess.run(self.ha.in_root([f"{self.ha.venv}/bin/python", f"{self.ha.inner}/ha_schema.py",
                                              f"{self.ha.inner}/discovery-configs.json"]),
                             capture_output=True, text=True)
        try:
            report = json.loads(run.stdout)
        except json.JSONDecodeError:
            check("the discovery configs are checked against the release's MQTT schema", False, run.stderr[-2000:])
            return
        print(f"        {report['configs']} configs, {len(report['keys'])} distinct keys checked against Home "
              f"Assistant {report['version']}'s MQTT schemas: {' '.join(report['keys'])}", flush=True)
        check("every discovery key and value is in the release's MQTT schema, with no warning, and every "
              "default_entity_id is the id the release builds", report["configs"] == len(configs) >= 30
              and not report["problems"], json.dumps(report["problems"], indent=1)[:3000])

    async def event_attributes(self, session):
        """An automation triggered by an event reads where it happened from the event itself."""
        check = self.results.check
        s = await self.ha.states(session)
        change = s.get("event.keys_location_change", {}).get("attributes", {})
        check("the location change carries the room, floor and gateway, and where the beacon was",
              change.get("event_type") in ("location", "not_home") and change.get("room") in ("hall", "office")
              and change.get("floor") == "1" and change.get("gateway") in ("A", "B")
              and {"previous_room", "previous_floor", "previous_gateway"} <= set(change), f"{change}")
        # A gateway's enter/exit is checked on README's single gateway (ha_readme), whose beacon
        # enters after discovery; here the beacons entered as the gateways started, with their configs.

    async def sigkill_and_restart(self, session):
        check = self.results.check
        before = await self.ha.states(session)
        bike_event = before.get("event.bike_hall_enter_exit", {}).get("state")
        self.processes.kill("gateway-A")
        s = await self.ha.wait_for(
            session, lambda s: state(s, "binary_sensor.beacon2mqtt_a_connectivity") == "off", 20)
        check("SIGKILL: gateway A's connectivity turns off (its will)", s is not None)
        s = s or await self.ha.states(session)
        check("and its entities turn unavailable",
              all(state(s, e) == "unavailable" for e in
                  ["device_tracker.bike_hall", "sensor.beacon2mqtt_a_beacons_tracked", "sensor.bike_hall_proximity"]),
              f"{[state(s, e) for e in ['device_tracker.bike_hall', 'sensor.beacon2mqtt_a_beacons_tracked']]}")
        check("while B's stay available", state(s, "binary_sensor.beacon2mqtt_b_connectivity") == "on")
        self.start_gateway("A")
        s = await self.ha.wait_for(
            session, lambda s: state(s, "binary_sensor.beacon2mqtt_a_connectivity") == "on"
            and state(s, "device_tracker.bike_hall") == "home", 30)
        check("restart: connectivity on, the still beacon home again", s is not None)
        await asyncio.sleep(8)
        s = await self.ha.states(session)
        check("no spurious enter for the beacon that never left (state restored from the broker)",
              s.get("event.bike_hall_enter_exit", {}).get("state") == bike_event,
              f"{bike_event} → {s.get('event.bike_hall_enter_exit')}")

    async def restart_home_assistant(self, session):
        check = self.results.check
        self.ha.stop()
        configs = self.broker.retained("homeassistant/#")
        self.broker.clear(configs)
        check("the retained configs are cleared while HA is down",
              len(configs) >= 30 and not self.broker.retained("homeassistant/#"), f"{len(configs)}")
        self.ha.start()
        check("Home Assistant starts again", await self.ha.wait_up(session) and await self.ha.wait_running(session))
        t0 = time.monotonic()
        wanted = ["device_tracker.keys", "device_tracker.bike", "device_tracker.bike_hall",
                  "binary_sensor.beacon2mqtt_b_connectivity", "sensor.bike_hall_proximity"]
        s = await self.ha.wait_for(session, lambda s: all(state(s, e) not in (None, "unavailable", "unknown")
                                                          for e in wanted), 60)
        check("its birth message brings every config back, with states", s is not None,
              f"{[(e, state(await self.ha.states(session), e)) for e in wanted]}" if s is None else "")
        print(f"        states back {time.monotonic() - t0:.1f} s after HA's API answered", flush=True)
        # C ended with its capture, so only the others announce theirs again.
        alive = [t for t in configs if "/beacon2mqtt_C/" not in t]
        check("the configs are retained again (C's capture has ended)",
              len(self.broker.retained("homeassistant/#")) == len(alive), f"{len(alive)}")

    def recorder_rows(self, start, end):
        """Rows the recorder wrote per beacon during the walk (steady state: no restarts), per hour,
        against docs/home-assistant.md's figures."""
        check = self.results.check
        hours = (end - start) / 3600
        db = sqlite3.connect(f"file:{self.ha.dir}/home-assistant_v2.db?mode=ro", uri=True)
        rows = dict(db.execute(
            "SELECT m.entity_id, COUNT(*) FROM states s JOIN states_meta m ON s.metadata_id = m.metadata_id "
            "WHERE s.last_updated_ts >= ? AND s.last_updated_ts < ? GROUP BY m.entity_id", (start, end)).fetchall())
        db.close()

        def beacon(slug):
            return {e: n for e, n in rows.items() if not TELEMETRY.search(e)
                    and (e.split(".", 1)[1] == slug or e.split(".", 1)[1].startswith(slug + "_"))}

        keys, bike = beacon("keys"), beacon("bike")
        moves = self.moves
        print(f"        recorder rows over the {hours * 3600:.0f} s walk: Keys {sum(keys.values())} for {moves} room "
              f"changes {sorted(keys.items())}; Bike {sum(bike.values())} {sorted(bike.items())}", flush=True)
        check(f"a still beacon writes ≤ {ROWS_STILL_BEACON_PER_HOUR} rows an hour",
              sum(bike.values()) <= max(1, ROWS_STILL_BEACON_PER_HOUR * hours), f"{sum(bike.values())} in {hours * 3600:.0f} s")
        check(f"a moving one ≤ {ROWS_PER_ROOM_CHANGE} rows per room change on top",
              sum(keys.values()) <= ROWS_STILL_BEACON_PER_HOUR * hours + ROWS_PER_ROOM_CHANGE * max(moves, 1),
              f"{sum(keys.values())} for {moves} changes")

    async def removal(self, session):
        check = self.results.check
        self.write_config("gateway-A", "A", discovery=False)
        self.processes.signal("gateway-A", signal.SIGHUP)
        gone = ["binary_sensor.beacon2mqtt_a_connectivity", "device_tracker.bike_hall", "device_tracker.keys_hall"]
        s = await self.ha.wait_for(session, lambda s: not any(e in s for e in gone), 30)
        check("discovery: false on reload removes gateway A's entities", s is not None)
        (entities,) = await self.ha.ws(session, [{"type": "config/entity_registry/list"}])
        ids = {e["entity_id"] for e in entities}
        check("from the entity registry too, the locator's and B's stay",
              not ids & set(gone) and {"device_tracker.keys", "binary_sensor.beacon2mqtt_b_connectivity"} <= ids)

    def log_is_clean(self):
        bad = []
        for path in self.ha.log_paths:  # both of HA's starts
            with open(path, errors="replace") as f:
                for line in f:
                    if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", line) and re.search(r"mqtt|discover|deprecat", line, re.I):
                        bad.append(line.rstrip())
        self.results.check("no WARNING or ERROR about MQTT, discovery or deprecations in HA's log", not bad,
                           "\n" + "\n".join(bad[:20]))

    def finish(self):
        self.processes.stop_all()
        r = self.results
        if r.failed or self.args.keep:
            print(f"test-ha: logs kept in {self.work}, HA's configuration and log in {self.ha.dir}", flush=True)
        else:
            subprocess.run(["rm", "-rf", self.work])
            self.ha.remove()
        print(f"test-ha: {r.passed} passed, {len(r.failed)} failed", flush=True)
        return 1 if r.failed else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--beacon2mqtt", required=True)
    p.add_argument("--plan", required=True)
    p.add_argument("--root", required=True, help="the Debian root Home Assistant runs in (ha-root.sh)")
    p.add_argument("--venv", required=True, help="Home Assistant's venv, as a path inside the root")
    p.add_argument("--estimote", default="Tests/Fixtures/captures/goodystone-estimote-eddystone_hcidump-raw.txt")
    p.add_argument("--screenshot", help="also copy the device-page screenshot here (docs/images/…)")
    p.add_argument("--keep", action="store_true", help="keep the work directory")
    scenario = Scenario(p.parse_args())
    # SIGTERM (a CI time-out, Ctrl-C's neighbour) still stops the children, which have sessions of their own.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        asyncio.run(scenario.run())
    except Exception as e:  # a broken step fails the run, and the children are still stopped
        scenario.results.check("the scenario runs to its end", False, repr(e))
    finally:
        status = scenario.finish()
    sys.exit(status)


if __name__ == "__main__":
    main()
