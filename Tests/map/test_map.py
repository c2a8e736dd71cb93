"""The live map in a real browser (make test-map, scripts/test-map.sh): a private mosquitto, three
simulated gateways walking Tests/map/site-plan.yaml and `beacon2mqtt locate` serving /map; headless
Chromium (Debian's `chromium`) loads the page and is driven over the DevTools protocol on a pipe
(--remote-debugging-pipe, so the standard library suffices). It checks that the page draws the
plan, follows the locator through server-sent events without reloading (a beacon moves and changes
room), that the floor picker and a click on a beacon work (its track shows), that a gateway that
stops shows offline, and saves a screenshot. The last line is "test-map: N passed, M failed"."""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

UUID = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


class DevTools:
    """The DevTools protocol over Chromium's pipe: commands on fd 3, answers and events on fd 4,
    each a JSON message ended by a NUL byte."""

    def __init__(self, chromium, profile, width, height):
        self.to_browser_r, self.to_browser_w = os.pipe()
        self.from_browser_r, self.from_browser_w = os.pipe()
        command = [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                   "--hide-scrollbars", f"--user-data-dir={profile}", "--remote-debugging-pipe",
                   f"--window-size={width},{height}", "about:blank"]
        # The browser reads fd 3 and writes fd 4: bash puts the pipes' ends there and execs it.
        self.browser = subprocess.Popen(
            ["bash", "-c", f'exec "$@" 3<&{self.to_browser_r} 4>&{self.from_browser_w}', "chromium"] + command,
            pass_fds=(self.to_browser_r, self.from_browser_w), stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        os.close(self.to_browser_r)
        os.close(self.from_browser_w)
        self.buffer = b""
        self.next = 0
        self.session = None
        self.console = []

    def call(self, method, session=True, timeout=30, **params):
        self.next += 1
        message = {"id": self.next, "method": method, "params": params}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser_w, json.dumps(message).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            m = self.receive()
            if m.get("method") == "Runtime.exceptionThrown":
                self.console.append(str(m["params"]["exceptionDetails"].get("exception", {}).get("description")))
            elif m.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", "")) for a in m["params"]["args"]))
            if m.get("id") == self.next:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
        raise RuntimeError(f"{method}: no answer in {timeout} s")

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser_r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def open(self, url, width, height):
        target = self.call("Target.createTarget", session=False, url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", session=False, targetId=target, flatten=True)["sessionId"]
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=url)

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return r.get("result", {}).get("value")

    def close(self):
        self.browser.kill()
        self.browser.wait()
        os.close(self.to_browser_w)
        os.close(self.from_browser_r)


# What the page shows: how many map events it took, its floor, the beacons' rows and the drawn ones.
STATE = """JSON.stringify({
  updates: Number(document.body.dataset.updates || 0),
  floor: document.getElementById("floor").value,
  floors: [...document.getElementById("floor").options].map(o => o.value),
  status: document.getElementById("status").textContent,
  rooms: [...document.querySelectorAll("svg polygon.room")].map(p => p.dataset.room),
  gateways: [...document.querySelectorAll("svg g.gateway")].map(g => g.dataset.gateway + ":" + g.getAttribute("class")),
  rows: [...document.querySelectorAll("#beacons tr")].map(r => ({id: r.dataset.id, room: r.dataset.room, floor: r.dataset.floor, text: r.textContent})),
  drawn: [...document.querySelectorAll("svg g.beacon")].map(g => ({id: g.dataset.id, room: g.dataset.room, x: Number(g.dataset.x)})),
  gatewayRows: [...document.querySelectorAll("#gateways tr")].map(r => [...r.cells].map(c => c.textContent)),
  track: document.querySelectorAll("#track tbody tr").length,
  trackLine: document.querySelectorAll("svg polyline.track").length,
  loads: performance.getEntriesByType("navigation").length,
  started: performance.timeOrigin
})"""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--beacon2mqtt", required=True)
    p.add_argument("--plan", default="Tests/map/site-plan.yaml")
    p.add_argument("--screenshot", default="docs/images/live-map.png")
    p.add_argument("--seconds", type=float, default=90, help="longest wait for the walk")
    args = p.parse_args()
    passed, failed = [], []

    def check(name, ok, detail=""):
        (passed if ok else failed).append(name)
        print(f"test-map: {'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"), file=sys.stderr)

    work = tempfile.mkdtemp(prefix="beacon2mqtt-map.")
    processes = []
    browser = None
    try:
        broker, endpoint = free_port(), free_port()
        with open(f"{work}/mosquitto.conf", "w") as f:
            f.write(f"listener {broker} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n")
            if os.getuid() == 0:
                f.write("user root\n")
        mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        processes.append(subprocess.Popen([mosquitto, "-c", f"{work}/mosquitto.conf"], stderr=subprocess.DEVNULL))
        if not wait_port(broker):
            raise RuntimeError("mosquitto did not start")
        plan = os.path.abspath(args.plan)
        with open(f"{work}/beacon2mqtt.yaml", "w") as f:
            f.write(f"""mqtt:
  host: 127.0.0.1
  port: {broker}
  stats_interval: 0
monitoring:
  exit_timeout: 5s
beacons:
  - {{uuid: {UUID}, major: 1, minor: 1, name: Keys}}
  - {{uuid: {UUID}, major: 1, minor: 2, name: Badge}}
metrics:
  locator_listen: 127.0.0.1:{endpoint}
  map: true
locator:
  site_plan: {plan}
""")
        start = int(time.time()) + 2
        for gateway in "ABC":
            processes.append(subprocess.Popen(
                [args.beacon2mqtt, "run", "--config", f"{work}/beacon2mqtt.yaml", "--simulate", "--floor-plan", plan,
                 "--as-gateway", gateway, "--start-at", str(start)],
                stderr=open(f"{work}/{gateway}.log", "w")))
        processes.append(subprocess.Popen(
            [args.beacon2mqtt, "locate", "--config", f"{work}/beacon2mqtt.yaml"],
            stderr=open(f"{work}/locate.log", "w")))
        check("locate serves the map", wait_port(endpoint), open(f"{work}/locate.log").read())
        url = f"http://127.0.0.1:{endpoint}"
        with urllib.request.urlopen(f"{url}/map.json", timeout=5) as r:
            document = json.load(r)
        check("/map.json has the plan", [x["name"] for x in document["rooms"]] == ["hall", "office", "lab"],
              document["rooms"])

        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        width, height = 1280, 720
        browser = DevTools(chromium, f"{work}/profile", width, height)
        browser.open(f"{url}/map", width, height)

        def state():
            return json.loads(browser.evaluate(STATE) or "{}")

        # The page follows the walk: Keys in the office, then in the lab, further east.
        seen, first = [], None
        deadline = time.time() + args.seconds
        while time.time() < deadline:
            time.sleep(0.5)
            s = state()
            keys = next((r for r in s.get("rows", []) if r["id"].endswith("/1/1")), None)
            if not keys:
                continue
            first = first or s
            if not seen or seen[-1] != keys["room"]:
                seen.append(keys["room"])
            if "office" in seen and "lab" in seen[seen.index("office"):]:
                break
        last = state()
        check("the page draws the plan's floors and gateways", last.get("floors") == ["1", "2"]
              and len(last.get("gateways", [])) == 1, last)
        check("Keys changed room on the page, office to lab", "office" in seen and "lab" in seen[seen.index("office"):],
              f"rooms seen {seen}; {open(f'{work}/locate.log').read()[-2000:]}")
        check("updates came as server-sent events, without a reload",
              first is not None and last["updates"] > first["updates"] + 3 and last["loads"] == 1
              and last["started"] == first["started"] and last["status"] == "live", (first, last))
        check("Badge stays in the hall", any(r["id"].endswith("/1/2") and r["room"] == "hall" for r in last["rows"]),
              last.get("rows"))
        # Floor 1 shows Badge; the picker switches to floor 2, where Keys is drawn in the lab.
        browser.evaluate('(() => { const s = document.getElementById("floor"); s.value = "2";'
                         ' s.dispatchEvent(new Event("change")); return 1; })()')
        s = state()
        keys = next((b for b in s["drawn"] if b["id"].endswith("/1/1")), None)
        check("the floor picker shows floor 2 with Keys in the lab",
              s["floor"] == "2" and s["rooms"] == ["office", "lab"] and keys is not None and keys["x"] > 7, s)
        # A click on Keys shows its track.
        browser.evaluate('document.querySelector("svg g.beacon[data-id$=\\"/1/1\\"] .dot")'
                         '.dispatchEvent(new MouseEvent("click", {bubbles: true})); 1')
        time.sleep(1.5)
        s = state()
        check("a click shows the beacon's track", s["track"] >= 2 and s["trackLine"] == 1, s)
        # Gateway A stops (its status goes offline): the page shows it so, live.
        processes[1].terminate()
        processes[1].wait(timeout=10)
        deadline = time.time() + 15
        while time.time() < deadline and ["A", "1 / hall", "offline"] not in state()["gatewayRows"]:
            time.sleep(0.5)
        s = state()
        check("a stopped gateway shows offline", ["A", "1 / hall", "offline"] in s["gatewayRows"]
              and ["B", "2 / office", "online"] in s["gatewayRows"], s["gatewayRows"])
        shot = browser.call("Page.captureScreenshot", format="png")
        os.makedirs(os.path.dirname(os.path.abspath(args.screenshot)), exist_ok=True)
        with open(args.screenshot, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        check("screenshot saved", os.path.getsize(args.screenshot) > 10_000, args.screenshot)
        check("the page threw nothing", not browser.console, browser.console)
    except Exception as error:  # a failure of the set-up is a failure, with its reason
        check("set-up", False, repr(error))
    finally:
        if browser:
            browser.close()
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)
    print(f"test-map: {len(passed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
