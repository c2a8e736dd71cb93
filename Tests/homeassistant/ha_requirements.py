"""Prints, one a line, the Python requirements of every integration `make test-ha` makes Home
Assistant load, read from the installed release itself: what its bootstrap always sets up
(homeassistant.bootstrap), the domains of the test's configuration.yaml (ha_harness.py), mqtt (its
config entry), and everything those name as dependencies or after_dependencies in their manifests
(an integration imports its after_dependencies' modules: mqtt's config flow imports hassio's).
Run with the release's own Python (ha-root.sh); the test then starts HA with --skip-pip.
"""

import json
import pathlib
import sys

from homeassistant import bootstrap
import homeassistant.components as components

# configuration.yaml's domains (ha_harness.py) and the config entry's.
CONFIGURED = {"homeassistant", "http", "api", "websocket_api", "config", "onboarding", "history", "recorder",
              "logger", "mqtt"}

root = pathlib.Path(components.__path__[0])
todo = set(CONFIGURED) | bootstrap.CORE_INTEGRATIONS | bootstrap.DEFAULT_INTEGRATIONS
done, requirements = set(), []
while todo:
    domain = todo.pop()
    done.add(domain)
    manifest = root / domain / "manifest.json"
    if not manifest.exists():
        sys.exit(f"ha_requirements: no integration {domain} in this release")
    m = json.loads(manifest.read_text())
    requirements += [r for r in m.get("requirements", []) if r not in requirements]
    todo |= (set(m.get("dependencies", [])) | set(m.get("after_dependencies", []))) - done
print(f"ha_requirements: {len(done)} integrations", file=sys.stderr)
print("\n".join(requirements))
