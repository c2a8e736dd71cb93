"""The parts of `make test-ha` that are not the scenario: results, child processes, the broker as a
plain MQTT client, and Home Assistant itself (configured through files, onboarded through its API)."""

import asyncio
import json
import os
import socket
import subprocess
import tempfile
import time
import uuid

import aiohttp
import paho.mqtt.client as mqtt

class Results:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"  ok    {name}", flush=True)
        else:
            self.failed.append(name)
            print(f"  FAIL  {name} {detail}", flush=True)
        return ok


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


class Processes:
    """Every child, stopped on exit (SIGTERM, then SIGKILL)."""

    def __init__(self, work):
        self.work = work
        self.children = {}

    def start(self, name, argv):
        log = open(os.path.join(self.work, f"{name}.log"), "ab")
        self.children[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        return self.children[name]

    def signal(self, name, sig):
        self.children[name].send_signal(sig)

    def stop(self, name, timeout=30):
        p = self.children.pop(name, None)
        if p is None or p.poll() is not None:
            return
        p.terminate()
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()

    def kill(self, name):
        p = self.children.pop(name)
        p.kill()
        p.wait()

    def stop_all(self):
        for name in list(self.children):
            self.stop(name, timeout=15)


class Broker:
    """Talks to the private mosquitto as a plain MQTT client."""

    def __init__(self, port):
        self.port = port

    def retained(self, pattern, settle=1.5):
        seen = {}
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-ha-{uuid.uuid4().hex[:8]}")
        c.on_message = lambda _c, _u, m: seen.__setitem__(m.topic, m.payload) if m.retain else None
        c.connect("127.0.0.1", self.port)
        c.subscribe(pattern)
        c.loop_start()
        time.sleep(settle)
        c.loop_stop()
        c.disconnect()
        return {t: p for t, p in seen.items() if p}

    def clear(self, topics):
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-ha-{uuid.uuid4().hex[:8]}")
        c.connect("127.0.0.1", self.port)
        c.loop_start()
        for t in topics:
            c.publish(t, b"", qos=1, retain=True).wait_for_publish(5)
        c.loop_stop()
        c.disconnect()


class HomeAssistant:
    """Home Assistant in the Debian root of ha-root.sh: started with chroot, in a mount namespace of
    its own that has the root's /proc (psutil, the hardware and system_health integrations read it),
    so nothing stays mounted when it ends. Its configuration directory is inside the root: `dir` is
    the host's path, `inner` the same directory as HA sees it."""

    def __init__(self, root, venv, mqtt_port, processes):
        self.root = os.path.abspath(root)
        self.venv = venv
        self.dir = tempfile.mkdtemp(prefix="test-ha.", dir=os.path.join(self.root, "tmp"))
        self.inner = self.dir[len(self.root):]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.processes = processes
        self.token = None
        self.frontend_tokens = None
        os.chmod(self.dir, 0o755)
        os.makedirs(os.path.join(self.dir, ".storage"))
        with open(os.path.join(self.dir, "configuration.yaml"), "w") as f:
            f.write(
                f"""homeassistant:
  name: beacon2mqtt test
  latitude: 52.37
  longitude: 4.89
  elevation: 0
  unit_system: metric
  time_zone: UTC
  country: NL
  currency: EUR
  internal_url: {self.url}
api:
websocket_api:
config:
onboarding:
history:
recorder:
  db_url: sqlite:///{self.inner}/home-assistant_v2.db
  commit_interval: 1
logger:
  default: info
"""
            )
        now = "2026-01-01T00:00:00+00:00"
        entry = {
            "created_at": now, "modified_at": now, "entry_id": uuid.uuid4().hex, "version": 1, "minor_version": 1,
            "domain": "mqtt", "title": "127.0.0.1", "source": "user", "unique_id": None, "disabled_by": None,
            "pref_disable_new_entities": False, "pref_disable_polling": False, "discovery_keys": {},
            "subentries": [],
            # Version 1.1 keeps the options in data; HA migrates them (mqtt async_migrate_entry).
            "data": {"broker": "127.0.0.1", "port": mqtt_port, "discovery": True, "discovery_prefix": "homeassistant"},
            "options": {},
        }
        with open(os.path.join(self.dir, ".storage", "core.config_entries"), "w") as f:
            json.dump({"version": 1, "minor_version": 5, "key": "core.config_entries", "data": {"entries": [entry]}}, f)
        # The HTTP server's settings live in .storage since 2026 (YAML is migrated once, then staged as
        # a trial the frontend asks to confirm and HA reverts after 5 minutes): stored as confirmed,
        # in the release's own form (its HTTP_STORAGE_SCHEMA with its defaults).
        http = subprocess.run(self.in_root([
            f"{self.venv}/bin/python", "-c",
            "import json, sys; from homeassistant.components.http.config import HTTP_STORAGE_SCHEMA as s; "
            "print(json.dumps(s({'server_host': '127.0.0.1', 'server_port': int(sys.argv[1])})))", str(self.port)]),
            check=True, capture_output=True, text=True).stdout
        stable = {**json.loads(http), "created_at": now, "error": None, "error_message": None}
        with open(os.path.join(self.dir, ".storage", "http"), "w") as f:
            json.dump({"version": 3, "minor_version": 1, "key": "http",
                       "data": {"stable": stable, "pending": None, "yaml_migration_done": True}}, f)
        # Onboarding's core_config step is marked done: configuration.yaml says where the home is, and
        # that step would set up integrations that reach out to the internet (weather, radio, TTS).
        with open(os.path.join(self.dir, ".storage", "onboarding"), "w") as f:
            json.dump({"version": 4, "minor_version": 1, "key": "onboarding", "data": {"done": ["core_config"]}}, f)

    @property
    def log_paths(self):
        """This start's log and the one before (HA renames it to .log.1 when it starts)."""
        return [os.path.join(self.dir, n) for n in ("home-assistant.log.1", "home-assistant.log")
                if os.path.exists(os.path.join(self.dir, n))]

    def in_root(self, argv):
        """argv run in the root, as root, with a clean environment (and the root's /proc)."""
        return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"', self.root,
                "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=/root", "LANG=C.UTF-8", "TZ=UTC", *argv]

    def start(self):
        self.processes.start("homeassistant", self.in_root(
            [f"{self.venv}/bin/python", "-m", "homeassistant", "-c", self.inner, "--skip-pip", "--log-no-color"]))

    def remove(self):
        subprocess.run(["rm", "-rf", self.dir])

    def stop(self):
        self.processes.stop("homeassistant", timeout=60)

    async def wait_up(self, session, timeout=180):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                # Before onboarding its status view answers; once onboarded (a restart) the API does.
                if self.token is None:
                    request = session.get(f"{self.url}/api/onboarding")
                else:
                    request = session.get(f"{self.url}/api/", headers={"Authorization": f"Bearer {self.token}"})
                async with request as r:
                    if r.status == 200:
                        return True
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.5)
        return False

    async def wait_running(self, session, timeout=120):
        """Until HA has finished starting (its MQTT birth message is sent then, and the agents answer
        it by publishing their configs again): before that, the recorder would count start-up rows."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            async with session.get(f"{self.url}/api/config", headers={"Authorization": f"Bearer {self.token}"}) as r:
                if r.status == 200 and (await r.json()).get("state") == "RUNNING":
                    return True
            await asyncio.sleep(0.5)
        return False

    async def onboard(self, session):
        """An owner through the onboarding API, then a long-lived token for everything else."""
        client = f"{self.url}/"
        async with session.post(
            f"{self.url}/api/onboarding/users",
            json={"client_id": client, "name": "Owner", "username": "owner", "password": "beacon2mqtt-test",
                  "language": "en"}) as r:
            code = (await r.json())["auth_code"]
        async with session.post(
            f"{self.url}/auth/token", data={"grant_type": "authorization_code", "code": code, "client_id": client}) as r:
            tokens = await r.json()
        # The frontend's own session (hassTokens), for the screenshot.
        self.frontend_tokens = {**tokens, "hassUrl": self.url, "clientId": client}
        self.token = tokens["access_token"]
        # The rest of onboarding, as the frontend's wizard would, so its pages open without it.
        headers = {"Authorization": f"Bearer {self.token}"}
        for step, body in (("analytics", {}),
                           ("integration", {"client_id": client, "redirect_uri": f"{client}?auth_callback=1"})):
            async with session.post(f"{self.url}/api/onboarding/{step}", json=body, headers=headers) as r:
                if r.status != 200:
                    raise RuntimeError(f"onboarding {step}: HTTP {r.status} {await r.text()}")
        self.token = (await self.ws(session, [{"type": "auth/long_lived_access_token", "client_name": "test-ha",
                                              "lifespan": 1}]))[0]

    async def ws(self, session, commands):
        async with session.ws_connect(f"{self.url}/api/websocket") as w:
            await w.receive_json()
            await w.send_json({"type": "auth", "access_token": self.token})
            assert (await w.receive_json())["type"] == "auth_ok"
            out = []
            for i, c in enumerate(commands, 1):
                await w.send_json({"id": i, **c})
                while True:
                    m = await w.receive_json()
                    if m.get("id") == i and m.get("type") == "result":
                        if not m.get("success"):
                            raise RuntimeError(f"{c['type']}: {m}")
                        out.append(m["result"])
                        break
            return out

    async def states(self, session):
        async with session.get(f"{self.url}/api/states", headers={"Authorization": f"Bearer {self.token}"}) as r:
            return {s["entity_id"]: s for s in await r.json()}

    async def wait_for(self, session, predicate, timeout):
        """Polls the states until predicate(states) holds; returns the states, or None on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                s = await self.states(session)
                if predicate(s):
                    return s
            except (aiohttp.ClientError, json.JSONDecodeError):
                pass
            await asyncio.sleep(0.5)
        return None

    async def history(self, session, entity, since):
        """Every state `entity` had since `since` (epoch seconds), oldest first, from the recorder."""
        start = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(since))
        async with session.get(
                f"{self.url}/api/history/period/{start}",
                params={"filter_entity_id": entity, "minimal_response": "", "no_attributes": ""},
                headers={"Authorization": f"Bearer {self.token}"}) as r:
            rows = await r.json()
        return [s["state"] for s in (rows[0] if rows else [])]

    async def version(self, session):
        async with session.get(f"{self.url}/api/config", headers={"Authorization": f"Bearer {self.token}"}) as r:
            return (await r.json())["version"]


def state(states, entity):
    return states.get(entity, {}).get("state")

