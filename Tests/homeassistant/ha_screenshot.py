"""A screenshot of a page of Home Assistant's own frontend, taken with headless Chromium (Debian's
`chromium`) over the DevTools protocol: the frontend's session (`hassTokens`, what its login
stores) goes into localStorage, then the page loads and is captured once it shows `expect`."""

import asyncio
import base64
import json
import re
import shutil
import subprocess
import tempfile

import aiohttp

# Text of the page, shadow roots included (the frontend is web components all the way down).
DEEP_TEXT = """(() => { const out = [];
  const walk = n => { if (n.shadowRoot) walk(n.shadowRoot);
    for (const c of n.childNodes) {
      if (c.nodeType === 3) out.push(c.textContent);
      else if (!['STYLE', 'SCRIPT', 'TITLE', 'TEMPLATE'].includes(c.nodeName)) walk(c); } };
  walk(document.body); return out.join(' ').replace(/\\s+/g, ' '); })()"""


def chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


class DevTools:
    def __init__(self, ws):
        self.ws = ws
        self.next = 0
        self.console = []  # the page's console messages and exceptions, for a failure's detail

    async def call(self, method, **params):
        self.next += 1
        await self.ws.send_json({"id": self.next, "method": method, "params": params})
        while True:
            m = await self.ws.receive_json()
            if m.get("method") == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in m["params"]["args"]))
            elif m.get("method") == "Runtime.exceptionThrown":
                self.console.append(str(m["params"]["exceptionDetails"].get("exception", {}).get("description")))
            if m.get("id") == self.next:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})

    async def evaluate(self, expression):
        r = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return r.get("result", {}).get("value")


async def capture(url, page, tokens, expect, out_png, width=1280, height=1100, timeout=120):
    """Loads `url + page` logged in with `tokens` (an /auth/token answer with `hassUrl` and
    `clientId`); returns (the page's text once every string in `expect` is on it, or None after
    `timeout`; the page's console), and writes the PNG to `out_png`."""
    profile = tempfile.mkdtemp(prefix="beacon2mqtt-chromium.")
    browser = subprocess.Popen(
        [chromium(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         f"--user-data-dir={profile}", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
         f"--window-size={width},{height}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        port = None
        for _ in range(200):
            line = await asyncio.to_thread(browser.stderr.readline)
            found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        if port is None:
            raise RuntimeError("chromium did not start its DevTools endpoint")
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/json/list") as r:
                target = next(t for t in await r.json() if t["type"] == "page")
            async with http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=64 << 20) as ws:
                cdp = DevTools(ws)
                await cdp.call("Page.enable")
                await cdp.call("Runtime.enable")
                await cdp.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                               deviceScaleFactor=1, mobile=False)
                # Any page of HA's origin, so localStorage is the frontend's; then the page itself.
                await cdp.call("Page.navigate", url=f"{url}/manifest.json")
                await asyncio.sleep(1)
                session = json.dumps(json.dumps(tokens))
                await cdp.evaluate(
                    f"const t = JSON.parse({session}); t.expires = Date.now() + t.expires_in * 1000;"
                    "localStorage.setItem('hassTokens', JSON.stringify(t)); 1")
                await cdp.evaluate("localStorage.setItem('selectedTheme', JSON.stringify({theme: 'default', dark: false})); 1")
                await cdp.call("Page.navigate", url=f"{url}{page}")
                text = None
                for _ in range(timeout * 2):
                    await asyncio.sleep(0.5)
                    t = await cdp.evaluate(DEEP_TEXT) or ""
                    if all(e in t for e in expect):
                        text = t
                        break
                await asyncio.sleep(3)  # icons, the history graph
                shot = await cdp.call("Page.captureScreenshot", format="png")
                with open(out_png, "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                return text, cdp.console
    finally:
        browser.kill()
        browser.wait()
        shutil.rmtree(profile, ignore_errors=True)
