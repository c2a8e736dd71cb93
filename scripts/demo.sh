#!/usr/bin/env bash
# `make demo`: builds beacon2mqtt, starts a private mosquitto on a free loopback port, runs
# `beacon2mqtt run --simulate` against it and shows what `mosquitto_sub -v` sees for about 20 s
# (DEMO_SECONDS to change). Everything it started is stopped on exit, also on Ctrl-C.
# `make demo-floors` (scripts/demo.sh floors): three simulated gateways on two floors
# (etc/floor-plan.yaml) and the locator; shows a beacon's location moving between floors from the
# walk's start, hall → office → lab → office → hall (~2 min).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-beacons}
if [ "$mode" = floors ]; then seconds=${DEMO_SECONDS:-115}; else seconds=${DEMO_SECONDS:-20}; fi

mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
if [ ! -x "$mosquitto" ] || ! command -v mosquitto_sub >/dev/null; then
    scripts/install-deps.sh
    mosquitto=$(command -v mosquitto || echo /usr/sbin/mosquitto)
fi
swift build --product beacon2mqtt
bin=.build/debug/beacon2mqtt

work=$(mktemp -d "${TMPDIR:-/tmp}/beacon2mqtt-demo.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/mosquitto.conf" <<EOF
listener $port 127.0.0.1
allow_anonymous true
persistence false
log_dest none
EOF
# As root, mosquitto would switch to the 'mosquitto' user; it need not, for a private broker.
[ "$(id -u)" -eq 0 ] && echo "user root" >>"$work/mosquitto.conf"
"$mosquitto" -c "$work/mosquitto.conf" 2>/dev/null &
pids+=($!)
for _ in $(seq 50); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done

if [ "$mode" = floors ]; then
    cat >"$work/beacon2mqtt.yaml" <<EOF
mqtt:
  host: 127.0.0.1
  port: $port
  stats_interval: 0
monitoring:
  exit_timeout: 5s
EOF
    echo "demo: mosquitto on 127.0.0.1:$port; gateways A (floor 1, hall), B (floor 2, office), C (floor 2, lab)" >&2
    echo "demo: beacon 1 walks A → B → C → B → A (hall → office → lab → office → hall, 100 s); watching locations for ${seconds}s (Ctrl-C stops)" >&2
    mosquitto_sub -h 127.0.0.1 -p "$port" -v -t 'beacons/+/+/+/location' -t 'beacons/+/+/+/event' &
    pids+=($!)
    # Every gateway's walk begins at one moment, once all have started, so the demo shows it from its start.
    start=$(($(date +%s) + 2))
    for gw in A B C; do
        "$bin" run --config "$work/beacon2mqtt.yaml" --simulate --floor-plan etc/floor-plan.yaml --as-gateway "$gw" \
            --start-at "$start" \
            2>"$work/$gw.log" &
        pids+=($!)
    done
    "$bin" locate --config "$work/beacon2mqtt.yaml" 2>"$work/locate.log" &
    pids+=($!)
    sleep "$seconds"
    exit 0
fi

cat >"$work/beacon2mqtt.yaml" <<EOF
gateway:
  id: demo
  room: lab
mqtt:
  host: 127.0.0.1
  port: $port
  stats_interval: 10s
monitoring:
  exit_timeout: 5s
regions:
  - name: lab
    uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
EOF

echo "demo: mosquitto on 127.0.0.1:$port; watching 'beacons/#' for ${seconds}s (Ctrl-C stops)" >&2
mosquitto_sub -h 127.0.0.1 -p "$port" -v -t 'beacons/#' &
pids+=($!)
"$bin" run --config "$work/beacon2mqtt.yaml" --simulate --beacons 3 &
agent=$!
pids+=("$agent")
sleep "$seconds"
# A clean stop: the agent publishes `offline` itself and exits 0.
kill -TERM "$agent"
wait "$agent" && echo "demo: agent stopped cleanly" >&2
sleep 0.3
