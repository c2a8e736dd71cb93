/// `/map`: the live map, one self-contained page (inline CSS and script, SVG drawing, no external
/// asset), so it works offline and needs no build step. It reads `/map.json` once, then follows
/// `/map/events` (server-sent events, reconnecting by itself); the floor picker redraws the chosen
/// floor, and a beacon clicked shows its recent track. The page keeps no history of its own: each
/// event replaces the whole map, so it holds what the locator holds (docs/metrics.md, "The live map").
enum MapPage {
    static let bytes = Array(html.utf8)

    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>beacon2mqtt live map</title>
        <style>
        body { margin: 0; font: 14px system-ui, sans-serif; color: #222; background: #f6f6f4; display: flex; height: 100vh; }
        #plan { flex: 1; display: flex; flex-direction: column; min-width: 0; }
        header { display: flex; gap: 1em; align-items: center; padding: .5em 1em; background: #fff; border-bottom: 1px solid #ddd; }
        header h1 { font-size: 1.1em; margin: 0; }
        #status { margin-left: auto; color: #666; }
        #status.live::before { content: "\25CF "; color: #59a14f; }
        #status.down::before { content: "\25CF "; color: #e15759; }
        svg { flex: 1; width: 100%; min-height: 0; }
        .room { fill-opacity: .22; stroke-width: .04; }
        .room-label { font-size: .45px; fill: #444; text-anchor: middle; }
        .wall { fill: none; stroke: #555; stroke-width: .08; stroke-linecap: round; }
        .gateway rect { stroke: #222; stroke-width: .04; }
        .gateway.online rect { fill: #59a14f; }
        .gateway.offline rect { fill: #e15759; }
        .gateway.skewed rect { fill: #edc948; }
        .gateway text { font-size: .35px; fill: #222; }
        .beacon { cursor: pointer; }
        .beacon .radius { fill-opacity: .12; stroke-opacity: .5; stroke-width: .03; }
        .beacon .dot { stroke: #fff; stroke-width: .06; }
        .beacon text { font-size: .4px; font-weight: 600; fill: #111; paint-order: stroke; stroke: #fff; stroke-width: .08; }
        .beacon.selected .dot { stroke: #111; stroke-width: .1; }
        .track { fill: none; stroke: #111; stroke-width: .05; stroke-dasharray: .15 .1; }
        .track-point { fill: #111; }
        aside { width: 22em; overflow: auto; background: #fff; border-left: 1px solid #ddd; padding: .5em 1em; }
        aside h2 { font-size: 1em; margin: .8em 0 .3em; }
        table { border-collapse: collapse; width: 100%; }
        td, th { text-align: left; padding: .15em .3em; border-bottom: 1px solid #eee; }
        tr.entry { cursor: pointer; }
        tr.entry.selected { background: #eef3fa; }
        .swatch { display: inline-block; width: .8em; height: .8em; border-radius: 50%; margin-right: .3em; vertical-align: -.05em; }
        #track td { font-variant-numeric: tabular-nums; }
        .muted { color: #777; }
        </style>
        </head>
        <body>
        <div id="plan">
          <header>
            <h1>beacon2mqtt</h1>
            <label>Floor <select id="floor"></select></label>
            <span id="status" class="down">connecting</span>
          </header>
          <svg id="drawing" xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMidYMid meet"></svg>
        </div>
        <aside>
          <h2>Beacons</h2>
          <table><thead><tr><th>name</th><th>floor</th><th>room</th><th>conf.</th></tr></thead><tbody id="beacons"></tbody></table>
          <h2>Gateways</h2>
          <table><tbody id="gateways"></tbody></table>
          <h2 id="track-title">Track</h2>
          <p class="muted" id="track-hint">Click a beacon to see its recent track.</p>
          <table id="track"><tbody></tbody></table>
        </aside>
        <script>
        "use strict";
        const NS = "http://www.w3.org/2000/svg";
        let map = null, floor = null, selected = null, updates = 0;
        const $ = (id) => document.getElementById(id);

        function el(name, attrs, parent) {
          const e = document.createElementNS(NS, name);
          for (const k in attrs) e.setAttribute(k, attrs[k]);
          if (parent) parent.appendChild(e);
          return e;
        }

        function cell(row, text) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); return td; }

        function label(b) { return b.name || b.id; }

        function percent(c) { return c == null ? "" : Math.round(c * 100) + " %"; }

        // One scale for every floor: the bounds of everything the plan draws.
        function bounds() {
          const xs = [], ys = [];
          const add = (x, y) => { if (x != null && y != null) { xs.push(x); ys.push(y); } };
          for (const r of map.rooms) for (const p of r.points) add(p[0], p[1]);
          for (const w of map.walls) for (const p of w.points) add(p[0], p[1]);
          for (const g of map.gateways) add(g.x, g.y);
          for (const b of map.beacons) add(b.x, b.y);
          if (!xs.length) return { x0: 0, y0: 0, x1: 10, y1: 10 };
          return { x0: Math.min(...xs) - 1, y0: Math.min(...ys) - 1, x1: Math.max(...xs) + 1, y1: Math.max(...ys) + 1 };
        }

        function floors() {
          const all = [...map.floors];
          for (const b of map.beacons) if (b.floor != null && !all.includes(b.floor)) all.push(b.floor);
          return all;
        }

        function renderFloors() {
          const select = $("floor"), list = floors();
          if (floor == null || !list.includes(floor)) floor = list[0] ?? null;
          const current = [...select.options].map((o) => o.value).join("\n");
          if (current !== list.join("\n")) {
            select.textContent = "";
            for (const f of list) { const o = document.createElement("option"); o.value = f; o.textContent = f; select.appendChild(o); }
          }
          select.value = floor ?? "";
        }

        function render() {
          renderFloors();
          const svg = $("drawing"), b = bounds();
          // The plan's y axis points up (north), the screen's down.
          const Y = (y) => b.y1 + b.y0 - y;
          svg.setAttribute("viewBox", `${b.x0} ${b.y0} ${b.x1 - b.x0} ${b.y1 - b.y0}`);
          svg.textContent = "";
          for (const r of map.rooms.filter((r) => r.floor === floor)) {
            el("polygon", { class: "room", points: r.points.map((p) => `${p[0]},${Y(p[1])}`).join(" "), fill: r.color, stroke: r.color, "data-room": r.name }, svg);
            // The name at the top of the room, clear of the beacons, which are mostly mid-room.
            const xs = r.points.map((p) => p[0]), top = Math.max(...r.points.map((p) => p[1]));
            el("text", { class: "room-label", x: (Math.min(...xs) + Math.max(...xs)) / 2, y: Y(top) + .7 }, svg).textContent = r.name;
          }
          for (const w of map.walls.filter((w) => w.floor === floor)) {
            el("polyline", { class: "wall", points: w.points.map((p) => `${p[0]},${Y(p[1])}`).join(" ") }, svg);
          }
          for (const g of map.gateways.filter((g) => g.floor === floor && g.x != null)) {
            const state = !g.online ? "offline" : g.clock_skewed ? "skewed" : "online";
            const group = el("g", { class: `gateway ${state}`, "data-gateway": g.id }, svg);
            el("rect", { x: g.x - .18, y: Y(g.y) - .18, width: .36, height: .36 }, group);
            el("text", { x: g.x + .25, y: Y(g.y) - .2 }, group).textContent = g.id;
          }
          const chosen = map.beacons.find((x) => x.id === selected);
          if (chosen && chosen.floor === floor && chosen.track.length) {
            el("polyline", { class: "track", points: chosen.track.map((p) => `${p.x},${Y(p.y)}`).join(" ") }, svg);
            for (const p of chosen.track) el("circle", { class: "track-point", cx: p.x, cy: Y(p.y), r: .06 }, svg);
          }
          for (const x of map.beacons.filter((x) => x.floor === floor && x.x != null)) {
            const color = x.color || "#777";
            const group = el("g", { class: "beacon" + (x.id === selected ? " selected" : ""), "data-id": x.id, "data-room": x.room ?? "", "data-x": x.x, "data-y": x.y }, svg);
            el("circle", { class: "radius", cx: x.x, cy: Y(x.y), r: Math.max(x.error_radius ?? 0, .1), fill: color, stroke: color }, group);
            el("circle", { class: "dot", cx: x.x, cy: Y(x.y), r: .2, fill: color }, group);
            el("text", { x: x.x + .3, y: Y(x.y) + .15 }, group).textContent = `${label(x)} ${percent(x.confidence)}`;
            group.addEventListener("click", () => choose(x.id));
          }
          renderLists();
        }

        function renderLists() {
          const body = $("beacons");
          body.textContent = "";
          for (const x of map.beacons) {
            const row = document.createElement("tr");
            row.className = "entry" + (x.id === selected ? " selected" : "");
            row.dataset.id = x.id;
            row.dataset.room = x.room ?? "";
            row.dataset.floor = x.floor ?? "";
            const name = cell(row, "");
            const swatch = document.createElement("span");
            swatch.className = "swatch";
            swatch.style.background = x.color || "#777";
            name.append(swatch, label(x));
            cell(row, x.floor ?? "");
            cell(row, x.state === "home" ? (x.room ?? x.gateway ?? "") : x.state);
            cell(row, percent(x.confidence));
            row.addEventListener("click", () => choose(x.id));
            body.appendChild(row);
          }
          const gateways = $("gateways");
          gateways.textContent = "";
          for (const g of map.gateways) {
            const row = document.createElement("tr");
            cell(row, g.id);
            cell(row, [g.floor, g.room].filter((v) => v != null).join(" / "));
            cell(row, !g.online ? "offline" : g.clock_skewed ? "clock skewed" : "online");
            gateways.appendChild(row);
          }
          const chosen = map.beacons.find((x) => x.id === selected);
          const track = $("track").tBodies[0];
          track.textContent = "";
          $("track-title").textContent = chosen ? `Track of ${label(chosen)}` : "Track";
          $("track-hint").hidden = !!chosen;
          if (chosen) {
            for (const p of [...chosen.track].reverse()) {
              const row = document.createElement("tr");
              cell(row, p.at.slice(11, 19));
              cell(row, `${p.x.toFixed(1)}, ${p.y.toFixed(1)} m`);
              track.appendChild(row);
            }
          }
        }

        function choose(id) {
          selected = selected === id ? null : id;
          const chosen = map.beacons.find((x) => x.id === selected);
          if (chosen && chosen.floor != null) floor = chosen.floor;
          render();
        }

        function show(next) {
          map = next;
          updates += 1;
          document.body.dataset.updates = updates;
          document.body.dataset.at = map.at;
          render();
        }

        $("floor").addEventListener("change", (e) => { floor = e.target.value; render(); });

        fetch("map.json", { cache: "no-store" }).then((r) => r.ok ? r.json() : null).then((m) => { if (m && !map) show(m); }).catch(() => {});
        const events = new EventSource("map/events");
        events.addEventListener("map", (e) => show(JSON.parse(e.data)));
        events.onopen = () => { $("status").className = "live"; $("status").textContent = "live"; };
        // The browser reconnects by itself, unless the server refused the stream (every place taken).
        events.onerror = () => {
          $("status").className = "down";
          $("status").textContent = events.readyState === EventSource.CLOSED ? "stopped; reload the page" : "reconnecting";
        };
        </script>
        </body>
        </html>

        """#
}
