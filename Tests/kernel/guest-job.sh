#!/bin/sh
# The kernel-test job, run by guest-init.sh inside the guest: one phase per scenario in
# /job/scenarios/phases (one name a line). Each phase gets a fresh broker, a subscriber that records
# every message (mosquitto_sub -F %j), a fresh virtual controller (vhci_controller.py) and the agent.
# Everything lands in /job/out/<phase>.*; the host asserts on it (Tests/kernel/check.py).
#
# /job/features sets LIVE_RUN=1 when 'beacon2mqtt run' scans a live adapter. Without it the phases
# still drive the kernel with 'beacon2mqtt record' (same HCI source), and the host skips MQTT checks.
set -u
. /job/features
# Run the agent from the tmpfs overlay: exec through 9p (no page cache there) is slow under TCG.
install -m 755 /job/bin/beacon2mqtt /usr/local/bin/beacon2mqtt
B=/usr/local/bin/beacon2mqtt
S=/job/scenarios
O=/job/out
mkdir -p "$O"
chmod 1777 "$O"  # phases run the agent as nobody, and it writes its capture here
# A non-interactive shell starts background jobs with SIGINT ignored, and an ignored signal never
# reaches a signalfd (btmon) or a handler installed later: reset it for everything started with &.
D="env --default-signal=INT"
now() { date +%s.%N; }
mark() { echo "$(now) $2" >> "$O/$1.marks"; }
log() { echo "job: $(cut -d' ' -f1 /proc/uptime) $*"; }

# Waits up to $2 seconds for a file or device path to exist.
wait_for() {
    i=0
    while [ ! -e "$1" ]; do
        i=$((i + 1)); [ $i -gt $(($2 * 10)) ] && return 1
        sleep 0.1
    done
}

start_broker() {
    [ -n "${BROKER_PID:-}" ] && kill "$BROKER_PID" 2>/dev/null && wait "$BROKER_PID" 2>/dev/null
    printf 'listener 1883 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest stderr\n' > /tmp/mosquitto.conf
    mosquitto -c /tmp/mosquitto.conf 2>> "$O/$1.broker.log" &
    BROKER_PID=$!
    i=0
    until mosquitto_pub -h 127.0.0.1 -t kernel-test/ping -m 1 2>/dev/null; do
        i=$((i + 1)); [ $i -gt 50 ] && { log "broker did not start"; return 1; }
        sleep 0.2
    done
}

# HCI sockets open now: a header line, then one line per socket. The kernel's bt_procfs_init puts the
# list straight under /proc/net (/proc/net/hci); /proc/net/bluetooth/hci, which this used to read, does
# not exist, so every wait on it returned at once.
hci_sockets() { wc -l < /proc/net/hci; }

# Waits up to $2 seconds until more than $1 HCI sockets are open, so that a scenario starts only once
# the program under test (started after counting) can see it.
wait_hci_socket() {
    [ -r /proc/net/hci ] || { log "no /proc/net/hci"; return 1; }
    deadline=$(($(cut -d. -f1 /proc/uptime) + $2))
    while [ "$(hci_sockets)" -le "$1" ]; do
        if [ "$(cut -d. -f1 /proc/uptime)" -ge $deadline ]; then
            cat /proc/net/hci
            return 1
        fi
        sleep 0.2
    done
}

# Starts btmon recording to $1 (its pid in $mon) and waits up to 30 s until it is attached. The kernel
# replays its notes and indexes to a monitor socket as soon as it is bound, so the file grows past its
# 16-byte btsnoop header then. (Counting sockets is not enough: a socket is listed in
# /proc/net/hci from socket() on, before btmon binds it, and under load hcitool's first
# commands went by before the bind.)
start_btmon() {
    $D btmon -w "$1" > /dev/null 2>&1 &
    mon=$!
    i=0
    while [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -le 16 ]; do
        i=$((i + 1)); [ $i -gt 300 ] && return 1
        sleep 0.1
    done
}

# hciconfig up, retried: the kernel powers a new controller on for set-up, then off again.
adapter_up() {
    i=0
    until hciconfig "$1" 2>/dev/null | grep -q "UP RUNNING"; do
        hciconfig "$1" up 2>/dev/null
        i=$((i + 1)); [ $i -gt 60 ] && return 1
        sleep 0.5
    done
}

# The agent under test: 'run' when it scans live, else 'record' driving the same HCI source.
# Usage: agent_cmd <phase> <mode>; prints the command line.
agent_cmd() {
    if [ "$LIVE_RUN" = 1 ]; then
        echo "$B run --config $S/$1.yaml"
    else
        echo "$B record $O/$1.driver.btsnoop --config $S/$1.yaml --mode $2"
    fi
}

# Runs one phase: broker, subscriber, controller, optional listen-mode recorder, agent; waits for the
# controller's scenario to end, then stops the agent with SIGTERM and records its exit code.
# Usage: phase <name> <mode> [wrapper...]  (the wrapper, e.g. setpriv ..., prefixes the agent)
phase() {
    name=$1 mode=$2
    shift 2
    log "phase $name: start"
    start_broker "$name" || return 1
    mosquitto_sub -h 127.0.0.1 -F '%j' -t '#' > "$O/$name.mqtt" 2> "$O/$name.sub.log" &
    sub=$!
    python3 /job/vhci_controller.py "$S/$name.json" --log "$O/$name.controller.jsonl" 2> "$O/$name.controller.err" &
    ctl=$!
    wait_for /sys/class/bluetooth/hci0 30 || log "phase $name: no hci0"
    if [ "$mode" = listen ]; then
        adapter_up hci0 || log "phase $name: hci0 did not come up"
        start_btmon "$O/$name.btmon.snoop" || log "phase $name: btmon did not attach"
        $D hcitool -i hci0 lescan --passive --duplicates > "$O/$name.hcitool.log" 2>&1 &
        driver=$!
        sleep 2
    fi
    rec=
    if [ "$LIVE_RUN" = 1 ]; then
        before=$(hci_sockets)
        $D $B record "$O/$name.btsnoop" --adapter hci0 --mode listen > "$O/$name.record.log" 2>&1 &
        rec=$!
        wait_hci_socket "$before" 30 || log "phase $name: the recorder has no HCI socket"
    fi
    before=$(hci_sockets)
    mark "$name" agent-start
    $D "$@" $(agent_cmd "$name" "$mode") > "$O/$name.agent.log" 2>&1 &
    agent=$!
    if [ "$mode" = listen ]; then
        wait_hci_socket "$before" 30 || log "phase $name: the agent has no HCI socket"
        sleep 0.5
        kill -USR1 "$ctl"  # the scenario clock starts now (listen.json: "clock": "signal")
    fi
    wait "$ctl"
    log "phase $name: controller done"
    if kill -0 "$agent" 2>/dev/null; then echo yes; else echo no; fi > "$O/$name.agent.alive"
    # Wake-ups per report (#18): each agent thread's name, voluntary context switches (times it
    # blocked and was woken) and read calls, before the stop; check.py divides by the reports.
    for t in /proc/"$agent"/task/*; do
        echo "$(cat "$t/comm") $(awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status") $(awk '/^syscr/ {print $2}' "$t/io")"
    done > "$O/$name.agent.threads" 2>/dev/null
    # 'run' stops on SIGTERM; 'record' (the interim driver) on SIGINT, like Ctrl-C.
    if [ "$LIVE_RUN" = 1 ]; then kill -TERM "$agent" 2>/dev/null; else kill -INT "$agent" 2>/dev/null; fi
    i=0
    while kill -0 "$agent" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "$agent" 2>/dev/null
    wait "$agent"
    echo $? > "$O/$name.agent.code"
    mark "$name" agent-stop
    [ -n "$rec" ] && { kill -INT "$rec" 2>/dev/null; wait "$rec"; }
    if [ "$mode" = listen ]; then
        kill -INT "$driver" 2>/dev/null; wait "$driver"
        sleep 0.5
        kill -INT "$mon" 2>/dev/null; wait "$mon"
    fi
    sleep 0.5
    kill "$sub" 2>/dev/null; wait "$sub" 2>/dev/null
    log "phase $name: agent exit $(cat "$O/$name.agent.code")"
}

# Scenario 5 (privilege): without CAP_NET_RAW the agent must refuse with its documented message.
# Runs against the first phase's controller, before anything scans.
privilege_denied() {
    python3 /job/vhci_controller.py "$S/privilege.json" --log "$O/privilege.controller.jsonl" 2> "$O/privilege.controller.err" &
    ctl=$!
    wait_for /sys/class/bluetooth/hci0 30
    adapter_up hci0
    timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups $(agent_cmd legacy passive) \
        > "$O/privilege.agent.log" 2>&1
    echo $? > "$O/privilege.agent.code"
    kill "$ctl"; wait "$ctl"
    wait_for_gone /sys/class/bluetooth/hci0 10
}

# The advertise phases' common start: the phase's broker and a subscriber recording everything ($sub),
# the two-controller vhci link ($ctl), and hci0 and hci1 up.
start_linked_adapters() {
    name=$1
    start_broker "$name" || return 1
    mosquitto_sub -h 127.0.0.1 -F '%j' -t '#' > "$O/$name.mqtt" 2> "$O/$name.sub.log" &
    sub=$!
    python3 /job/vhci_controller.py "$S/$name.json" --log "$O/$name.controller.jsonl" 2> "$O/$name.controller.err" &
    ctl=$!
    wait_for /sys/class/bluetooth/hci1 30 || log "phase $name: no hci1"
    adapter_up hci0 || log "phase $name: hci0 did not come up"
    adapter_up hci1 || log "phase $name: hci1 did not come up"
}

# Scenario 6 (advertise-legacy, advertise-extended): 'beacon2mqtt advertise' on hci1 sends an iBeacon over
# the virtual link to hci0. First BlueZ's own discovery (btmgmt find, recorded by btmon) must report its
# manufacturer data; then 'beacon2mqtt run' on hci0 publishes an enter, and stopping the advertiser an exit.
ADV_ARGS="ibeacon --uuid e2c56db5-dffb-48d2-b060-d0f5a71096e0 --major 7 --minor 13 --interval 100ms"
advertise_phase() {
    name=$1
    log "phase $name: start"
    start_linked_adapters "$name" || return 1
    mark "$name" advertiser-start
    $D $B advertise $ADV_ARGS --adapter hci1 --address random-static -v > "$O/$name.advertise.log" 2>&1 &
    adv=$!
    sleep 3
    start_btmon "$O/$name.btmon.snoop" || log "phase $name: btmon did not attach"
    timeout 20 btmgmt --index 0 find -l > "$O/$name.btmgmt.log" 2>&1
    kill -INT "$mon" 2>/dev/null; wait "$mon"
    btmon -r "$O/$name.btmon.snoop" > "$O/$name.btmon.txt" 2>&1
    mark "$name" agent-start
    $D $B run --config "$S/$name.yaml" > "$O/$name.agent.log" 2>&1 &
    agent=$!
    sleep 8
    mark "$name" advertiser-stop
    kill -TERM "$adv" 2>/dev/null
    i=0
    while kill -0 "$adv" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "$adv" 2>/dev/null
    wait "$adv"
    echo $? > "$O/$name.advertise.code"
    sleep 8  # exit_timeout 4s, plus the ranging tick and delivery
    if kill -0 "$agent" 2>/dev/null; then echo yes; else echo no; fi > "$O/$name.agent.alive"
    kill -TERM "$agent" 2>/dev/null
    i=0
    while kill -0 "$agent" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "$agent" 2>/dev/null
    wait "$agent"
    echo $? > "$O/$name.agent.code"
    mark "$name" agent-stop
    kill "$ctl" 2>/dev/null; wait "$ctl"
    sleep 0.5
    kill "$sub" 2>/dev/null; wait "$sub" 2>/dev/null
    log "phase $name: advertiser exit $(cat "$O/$name.advertise.code"), agent exit $(cat "$O/$name.agent.code")"
}

# Waits up to $2 seconds for the controller's log of phase $1 to show hci1 advertising (legacy or set 0x0A).
wait_advertising() {
    i=0
    until grep -Eq '"(legacy|10)": "on"' "$O/$1.controller.jsonl" 2>/dev/null; do
        i=$((i + 1)); [ $i -gt $(($2 * 10)) ] && return 1
        sleep 0.1
    done
}

# Stops a process with SIGTERM (SIGKILL after 10 s) and writes its exit code to $2.
stop_agent() {
    kill -TERM "$1" 2>/dev/null
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -KILL "$1" 2>/dev/null
    wait "$1"
    echo $? > "$2"
}

# Scenario 7 (advertise-daemon-legacy, advertise-daemon-extended): 'beacon2mqtt run' with 'advertise:' on
# hci1 scans (its controller plays beacon Z to it) and advertises its iBeacon 7/13. BlueZ's discovery on
# hci0 (btmgmt find, btmon) and a second 'run' on hci0 see it; a configuration layer over MQTT moves it to
# minor 15 (the radio must follow); SIGTERM to the hci1 agent ends it, which hci0's agent sees as an exit.
# With a $name-locator.yaml, 'beacon2mqtt locate' runs beside them and fits hci0's gateway's offset from
# what it hears of hci1's (both configured with positions).
advertise_daemon_phase() {
    name=$1
    log "phase $name: start"
    start_linked_adapters "$name" || return 1
    mkdir -p "/tmp/$name-state"
    mark "$name" agent-start
    $D env STATE_DIRECTORY="/tmp/$name-state" $B run --config "$S/$name.yaml" > "$O/$name.agent.log" 2>&1 &
    agent=$!
    wait_advertising "$name" 60 || log "phase $name: hci1 never advertised"
    start_btmon "$O/$name.btmon.snoop" || log "phase $name: btmon did not attach"
    timeout 20 btmgmt --index 0 find -l > "$O/$name.btmgmt.log" 2>&1
    kill -INT "$mon" 2>/dev/null; wait "$mon"
    btmon -r "$O/$name.btmon.snoop" > "$O/$name.btmon.txt" 2>&1
    locator=
    if [ -f "$S/$name-locator.yaml" ]; then
        $D $B locate --config "$S/$name-locator.yaml" > "$O/$name.locate.log" 2>&1 &
        locator=$!
    fi
    mark "$name" scanner-start
    $D $B run --config "$S/$name-scanner.yaml" > "$O/$name.scanner.log" 2>&1 &
    scanner=$!
    sleep 8
    mark "$name" layer-set
    mosquitto_pub -h 127.0.0.1 -q 1 -r -t "kt/gateways/kt-$name/config/set" -m '{"advertise": {"minor": 15}}'
    sleep 10  # 7/13 exits 4 s after its last advertisement; 7/15 enters
    if kill -0 "$agent" 2>/dev/null; then echo yes; else echo no; fi > "$O/$name.agent.alive"
    mark "$name" advertiser-stop
    stop_agent "$agent" "$O/$name.agent.code"
    sleep 8  # 7/15's exit: exit_timeout 4 s, plus the ranging tick and delivery
    if kill -0 "$scanner" 2>/dev/null; then echo yes; else echo no; fi > "$O/$name.scanner.alive"
    stop_agent "$scanner" "$O/$name.scanner.code"
    [ -n "$locator" ] && stop_agent "$locator" "$O/$name.locate.code"
    mark "$name" agent-stop
    kill "$ctl" 2>/dev/null; wait "$ctl"
    sleep 0.5
    kill "$sub" 2>/dev/null; wait "$sub" 2>/dev/null
    log "phase $name: advertising agent exit $(cat "$O/$name.agent.code"), scanner exit $(cat "$O/$name.scanner.code")"
}

wait_for_gone() {
    i=0
    while [ -e "$1" ]; do i=$((i + 1)); [ $i -gt $(($2 * 10)) ] && return 1; sleep 0.1; done
}

uname -a
log "features: LIVE_RUN=$LIVE_RUN"
[ -c /dev/vhci ] || { log "no /dev/vhci"; exit 2; }
[ -r /proc/net/hci ] || log "no /proc/net/hci: the waits for HCI sockets will fail"
for name in $(cat "$S/phases"); do
    case $name in
        privilege) privilege_denied ;;
        legacy)
            # Unprivileged user with the two capabilities as ambient capabilities: must work.
            phase legacy passive setpriv --reuid=65534 --regid=65534 --clear-groups \
                --inh-caps=+net_raw,+net_admin --ambient-caps=+net_raw,+net_admin ;;
        listen) phase listen listen ;;
        advertise-daemon-*) advertise_daemon_phase "$name" ;;
        advertise-*) advertise_phase "$name" ;;
        *) phase "$name" passive ;;
    esac
    wait_for_gone /sys/class/bluetooth/hci0 10 || log "hci0 still there after phase $name"
    wait_for_gone /sys/class/bluetooth/hci1 10
done
dmesg > "$O/dmesg.log"
log "done"
