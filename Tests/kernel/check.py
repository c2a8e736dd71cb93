#!/usr/bin/env python3
"""Host-side assertions of the kernel test, over what one guest boot left in the job folder.

Usage: check.py JOB_DIR AGENT_BINARY SCENARIO_DIR

Prints one line per check (PASS / FAIL / SKIP with the reason), the guest console and the logs of
every phase that failed, and last a summary line `N passed, M failed, K skipped` (CI counts it).
Exit status 1 when anything failed.
"""
import datetime
import json
import math
import os
import struct
import subprocess
import sys

UUID = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
X_TOPIC = "kt/%s/1/1/kt-{phase}" % UUID
Y_TOPIC = "kt/%s/1/2/kt-{phase}" % UUID
LOBBY_TOPIC = "kt/regions/lobby/kt-{phase}"
PROXIMITY_ORDER = ["far", "near", "immediate"]
# BlueZ (btmon) writes btsnoop time as microseconds since 2000-01-01 plus 0x00E03AB44A676000
# (src/shared/btsnoop.c); this is the same origin expressed against 1970-01-01.
BTSNOOP_EPOCH_DELTA_US = 0x00E03AB44A676000 - 946684800 * 1000000


class Checks:
    def __init__(self, job):
        self.job = job
        self.out = os.path.join(job, "out")
        self.results = []  # (status, name, detail, phase)

    def record(self, status, name, detail="", phase=None):
        self.results.append((status, name, detail, phase))
        print("%s %s%s" % (status, name, (": " + detail) if detail else ""), flush=True)

    def check(self, name, ok, detail="", phase=None):
        self.record("PASS" if ok else "FAIL", name, "" if ok else detail, phase)
        return ok

    def skip(self, name, reason):
        self.record("SKIP", name, reason)

    def path(self, phase, suffix):
        return os.path.join(self.out, "%s.%s" % (phase, suffix))

    def text(self, phase, suffix):
        try:
            with open(self.path(phase, suffix), errors="replace") as f:
                return f.read()
        except OSError:
            return ""


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def read_jsonl(path):
    rows = []
    try:
        with open(path, errors="replace") as f:
            for line in f:
                line = line.strip()
                if line:
                    try:
                        rows.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return rows


def payload_of(row):
    """The payload of a subscriber (%j) or replay (jsonl) row, as JSON when it is JSON."""
    payload = row.get("payload")
    if isinstance(payload, str):
        try:
            return json.loads(payload)
        except ValueError:
            return payload
    return payload


def events_by_topic(messages, phase):
    """{"X": [...], "Y": [...], "lobby": [...]}: the enter/exit sequence of each identity."""
    wanted = {"X": X_TOPIC.format(phase=phase) + "/event", "Y": Y_TOPIC.format(phase=phase) + "/event",
              "lobby": LOBBY_TOPIC.format(phase=phase) + "/event"}
    found = {key: [] for key in wanted}
    for row in messages:
        for key, topic in wanted.items():
            if row.get("topic") == topic:
                body = payload_of(row)
                found[key].append(body.get("event") if isinstance(body, dict) else body)
    return found


def event_payloads(messages, topic):
    return [payload_of(r) for r in messages if r.get("topic") == topic and isinstance(payload_of(r), dict)]


def proximity_sequence(messages, phase):
    """X's proximity classes in publish order, repeats and `unknown` removed."""
    sequence = []
    for body in event_payloads(messages, X_TOPIC.format(phase=phase) + "/proximity"):
        value = body.get("proximity")
        if value != "unknown" and (not sequence or sequence[-1] != value):
            sequence.append(value)
    return sequence


def replay(agent, capture, config):
    result = subprocess.run([agent, "replay", capture, "--config", config, "--output", "jsonl"],
                            capture_output=True, text=True, timeout=120)
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return result.returncode, rows, result.stderr


def btsnoop_commands(path):
    """Timestamps (Unix seconds) of the HCI commands in a btmon (monitor, datalink 2001) btsnoop file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"btsnoop\0":
        raise ValueError("not a btsnoop file")
    datalink = struct.unpack_from(">I", data, 12)[0]
    if datalink != 2001:
        raise ValueError("datalink %d, not the monitor format" % datalink)
    offset, times = 16, []
    while offset + 24 <= len(data):
        _, included, flags, _, stamp = struct.unpack_from(">IIIIq", data, offset)
        offset += 24 + included
        if flags & 0xFFFF == 2:  # monitor opcode 2: command packet (btsnoop "monitor" flags: index << 16 | opcode)
            times.append((stamp - BTSNOOP_EPOCH_DELTA_US) / 1e6)
    return times


def marks(checks, phase):
    found = {}
    for line in checks.text(phase, "marks").splitlines():
        stamp, _, name = line.partition(" ")
        found[name] = float(stamp)
    return found


def controller_log(checks, phase):
    return read_jsonl(checks.path(phase, "controller.jsonl"))


def controller_checks(checks, phase, expected_mode):
    log = controller_log(checks, phase)
    unknown = sorted({row["opcode"] for row in log if row.get("event") == "command" and not row.get("known")})
    if unknown:
        print("note %s: the controller answered unknown opcodes with a bare success: %s" % (phase, ", ".join(unknown)))
    modes = [row["mode"] for row in log if row.get("event") == "scan" and row.get("mode") != "off"]
    checks.check("%s: the agent scanned with %s commands" % (phase, expected_mode),
                 bool(modes) and set(modes) == {expected_mode}, "scan enables seen: %s" % (modes or "none"), phase)
    return log


def beacon_stop_time(log, name):
    stops = [row["time"] for row in log if row.get("event") == "beacon" and row.get("name") == name and not row.get("active")
             and row.get("t", 0) > 0.5]
    return stops[-1] if stops else None


def sequence_checks(checks, phase, source, messages, expect_y, exit_timeout):
    """Scenarios 1 and 2 on one message list (MQTT subscriber or replay of a recording)."""
    events = events_by_topic(messages, phase)
    checks.check("%s/%s: X enters then exits" % (phase, source), events["X"] == ["enter", "exit"], "X events %s" % events["X"], phase)
    checks.check("%s/%s: region lobby enters then exits" % (phase, source), events["lobby"] == ["enter", "exit"],
                 "lobby events %s" % events["lobby"], phase)
    expected_y = ["enter", "exit"] if expect_y else []
    what = "extended-PDU beacon Y seen and gone" if expect_y else "extended-PDU beacon Y unseen by a legacy scan"
    checks.check("%s/%s: %s" % (phase, source, what), events["Y"] == expected_y, "Y events %s" % events["Y"], phase)
    sequence = proximity_sequence(messages, phase)
    checks.check("%s/%s: X proximity far -> near -> immediate" % (phase, source), sequence == PROXIMITY_ORDER,
                 "proximity sequence %s" % sequence, phase)
    exits = [p for p in event_payloads(messages, X_TOPIC.format(phase=phase) + "/event") if p.get("event") == "exit"]
    if exits:
        late = parse_time(exits[0]["timestamp"]) - parse_time(exits[0]["last_seen"])
        checks.check("%s/%s: X exits %.0f s after it was last seen" % (phase, source, exit_timeout),
                     abs(late - exit_timeout) < 0.6, "exit %.2f s after last_seen" % late, phase)
    return events


def advertising_reports(path):
    """(events, reports) of the LE Advertising Report and Extended Advertising Report events in an
    H4 (datalink 1002) btsnoop capture, as `beacon2mqtt record` writes it."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"btsnoop\0" or struct.unpack_from(">I", data, 12)[0] != 1002:
        raise ValueError("not an H4 btsnoop file")
    offset, events, reports = 16, 0, 0
    while offset + 24 <= len(data):
        included = struct.unpack_from(">I", data, offset + 4)[0]
        packet = data[offset + 24:offset + 24 + included]
        offset += 24 + included
        # H4 event (0x04), LE Meta (0x3E), subevent 0x02 or 0x0D, then Num_Reports (Core Vol 4, Part E, 7.7.65.2 / .13).
        if len(packet) >= 5 and packet[0] == 0x04 and packet[1] == 0x3E and packet[3] in (0x02, 0x0D):
            events += 1
            reports += packet[4]
    return events, reports


def wakeup_checks(checks, phase, capture, reads_checked=True):
    """The live HCI source's wake-ups and reads per report (#18): the source thread's voluntary context
    switches and read calls, from /proc before the stop, over the reports the recorder beside it saw."""
    threads = {}
    for line in checks.text(phase, "agent.threads").splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit():
            threads[fields[0]] = (int(fields[1]), int(fields[2]))
    if "source" not in threads or not os.path.exists(capture):
        checks.check("%s/wake-ups: the source thread's counts were read" % phase, False,
                     "threads %s, capture %s" % (sorted(threads), os.path.exists(capture)), phase)
        return None
    events, reports = advertising_reports(capture)
    switches, reads = threads["source"]
    print("INFO %s/wake-ups: %d reports in %d events; source thread %d wake-ups (%.2f per report), %d reads (%.2f per report); pipeline thread %s"
          % (phase, reports, events, switches, switches / max(reports, 1), reads, reads / max(reports, 1),
             "%d wake-ups" % threads["beacon2mqtt"][0] if "beacon2mqtt" in threads else "not found"), flush=True)
    # One read per HCI event (the socket hands over one event per read; a batch ends on a poll, not a
    # read). The bound is what the controller wrote, command completions included: the recorder's
    # capture can miss events when the guest is slow, so it only tells that reports arrived. The
    # wake-ups are reported, not asserted: they also count the idle poll timeouts, which depend on
    # how long the phase runs.
    # Held reads (scanner.read_interval) use recvmsg for the receive times, which syscr does not count.
    if reads_checked:
        done = [row for row in controller_log(checks, phase) if row.get("event") == "done"]
        sent = done[-1].get("events_sent") if done else None
        checks.check("%s/wake-ups: the source reads each event once" % phase,
                     reports > 0 and sent is not None and reads <= sent + 50,
                     "%s events written by the controller, %d recorded, %d reads, %d wake-ups"
                     % (sent, events, reads, switches), phase)
    return reports, switches, threads.get("beacon2mqtt", (None, None))[0]


def scan_phase(checks, agent, scenarios, phase, live_run, expect_y):
    log = controller_checks(checks, phase, "extended" if expect_y else "legacy")
    config = os.path.join(scenarios, phase + ".yaml")
    capture = checks.path(phase, "btsnoop" if live_run else "driver.btsnoop")
    replayed = None
    if os.path.exists(capture):
        code, replayed, err = replay(agent, capture, config)
        if checks.check("%s: replay of the guest recording succeeds" % phase, code == 0, "exit %d: %s" % (code, err.strip()[-300:]), phase):
            replay_events = sequence_checks(checks, phase, "replay", replayed, expect_y, 4.0)
    else:
        checks.check("%s: the guest recorded a capture" % phase, False, "missing %s" % capture, phase)
    if not live_run:
        checks.skip("%s/mqtt: enter, ranging, exit through the broker" % phase, "'beacon2mqtt run' has no live HCI source in this build")
        return
    messages = read_jsonl(checks.path(phase, "mqtt"))
    events = sequence_checks(checks, phase, "mqtt", messages, expect_y, 4.0)
    exits = [p for p in event_payloads(messages, X_TOPIC.format(phase=phase) + "/event") if p.get("event") == "exit"]
    stop = beacon_stop_time(log, "X")
    if exits and stop:
        seen = parse_time(exits[0]["last_seen"])
        checks.check("%s/mqtt: X last seen when the controller stopped it" % phase, abs(seen - stop) < 1.5,
                     "last_seen %.2f s from the controller's stop" % (seen - stop), phase)
    code = checks.text(phase, "agent.code").strip()
    checks.check("%s/mqtt: agent exits 0 on SIGTERM" % phase, code == "0", "exit code %s" % (code or "missing"), phase)
    wakeup_checks(checks, phase, capture)
    if replayed is not None:
        checks.check("%s: record -> replay gives the same enter/exit sequence as the live run" % phase,
                     events_by_topic(replayed, phase) == events, "replay %s, live %s" % (events_by_topic(replayed, phase), events), phase)


def burst_phase(checks, phase, live_run):
    """Batching on the live path (#18, burst.json): every 100 ms the controller writes 40 advertising
    reports back to back. The source thread reads what the socket holds and hands it over as one batch,
    so it wakes far less often than once a report (the other scan phases, a report or two at a time,
    wake it about 1.2-1.3 times a report)."""
    controller_checks(checks, phase, "legacy")
    if not live_run:
        checks.skip("%s: batching on the live path" % phase, "'beacon2mqtt run' has no live HCI source in this build")
        return
    messages = read_jsonl(checks.path(phase, "mqtt"))
    prefix, suffix = "kt/%s/1/" % UUID, "/kt-%s/event" % phase
    entered = {row["topic"] for row in messages if row.get("topic", "").startswith(prefix) and row["topic"].endswith(suffix)
               and isinstance(payload_of(row), dict) and payload_of(row).get("event") == "enter"}
    checks.check("%s/mqtt: all 40 beacons entered" % phase, len(entered) == 40, "%d entered" % len(entered), phase)
    figures = wakeup_checks(checks, phase, checks.path(phase, "btsnoop"))
    if figures is not None:
        # The pipeline thread's wake-ups also count its timers and the MQTT thread's acknowledgements;
        # a hand-over per report would wake it about once a report.
        reports, source, pipeline = figures
        checks.check("%s/wake-ups: the source and the pipeline each wake at most once per two reports (batches)" % phase,
                     reports >= 1000 and source <= reports / 2 and pipeline is not None and pipeline <= reports / 2,
                     "%d reports, source %d wake-ups, pipeline %s" % (reports, source, pipeline), phase)


def cadence_phase(checks, agent, scenarios, phase, live_run):
    """The live source's read interval (#18, cadence.json): reports arrive one every 2.5 ms; with
    scanner.read_interval 200ms the source reads the socket about five times a second, and each report
    keeps the kernel's receive time, so an enter is stamped as the recorder beside it (reading each
    report as it arrives) saw it, not up to 200 ms later."""
    controller_checks(checks, phase, "legacy")
    if not live_run:
        checks.skip("%s: the read interval on the live path" % phase, "'beacon2mqtt run' has no live HCI source in this build")
        return
    log = checks.text(phase, "agent.log")
    checks.check("%s: the kernel attached receive times (HCI_TIME_STAMP)" % phase,
                 "no receive times" not in log, "agent log: %s" % log.strip()[-300:], phase)
    messages = read_jsonl(checks.path(phase, "mqtt"))
    prefix, suffix = "kt/%s/1/" % UUID, "/kt-%s/event" % phase

    def enters(rows):
        found = {}
        for row in rows:
            topic, body = row.get("topic", ""), payload_of(row)
            if topic.startswith(prefix) and topic.endswith(suffix) and isinstance(body, dict) and body.get("event") == "enter":
                found.setdefault(topic, body.get("timestamp"))
        return found

    live = enters(messages)
    checks.check("%s/mqtt: all 40 beacons entered" % phase, len(live) == 40, "%d entered" % len(live), phase)
    figures = wakeup_checks(checks, phase, checks.path(phase, "btsnoop"), reads_checked=False)
    if figures is not None:
        reports, source, _ = figures
        checks.check("%s/wake-ups: the source wakes at most once per ten reports (held reads)" % phase,
                     reports >= 1000 and source <= reports / 10, "%d reports, source %d wake-ups" % (reports, source), phase)
    capture = checks.path(phase, "btsnoop")
    if not os.path.exists(capture):
        checks.check("%s: the recorder beside the agent wrote a capture" % phase, False, "missing %s" % capture, phase)
        return
    code, replayed, err = replay(agent, capture, os.path.join(scenarios, phase + ".yaml"))
    seen = enters(replayed) if code == 0 else {}

    def seconds(text):
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc).timestamp()

    gaps = sorted(abs(seconds(live[t]) - seconds(seen[t])) * 1000 for t in live if t in seen and live[t] and seen[t])
    median = gaps[len(gaps) // 2] if gaps else None
    print("INFO %s/stamps: |live enter - recorder enter| ms: median %s, max %s over %d beacons"
          % (phase, "%.1f" % median if median is not None else "-", "%.1f" % gaps[-1] if gaps else "-", len(gaps)), flush=True)
    # Stamped at the read instead, a held report would be 100 ms late on average (up to 200 ms).
    checks.check("%s: held reports keep the kernel's receive time (median gap to the recorder's stamp under 50 ms)" % phase,
                 len(gaps) == 40 and median < 50, "replay exit %d, %d compared, median %s ms, gaps %s"
                 % (code, len(gaps), median, [round(g) for g in gaps]), phase)


def privilege_phase(checks, phase_log_name="privilege"):
    code = checks.text(phase_log_name, "agent.code").strip()
    log = checks.text(phase_log_name, "agent.log")
    checks.check("privilege: without CAP_NET_RAW the agent exits 69", code == "69", "exit code %s" % (code or "missing"), "privilege")
    checks.check("privilege: the message names CAP_NET_RAW", "CAP_NET_RAW" in log, "log: %s" % log.strip()[-300:], "privilege")


def unplug_phase(checks, live_run):
    phase = "unplug"
    log = controller_checks(checks, phase, "extended")
    appears = [row for row in log if row.get("event") == "appear"]
    checks.check("unplug: the controller returned with the same address under a new index",
                 len(appears) == 2 and appears[0]["address"] == appears[1]["address"] and appears[0]["index"] != appears[1]["index"],
                 "appearances %s" % [(a["index"], a["address"]) for a in appears], phase)
    if not live_run:
        checks.skip("unplug/mqtt: degraded then online, publishing resumes, region state kept",
                    "'beacon2mqtt run' has no live HCI source in this build")
        return
    messages = read_jsonl(checks.path(phase, "mqtt"))
    statuses = [(i, str(payload_of(r))) for i, r in enumerate(messages) if r.get("topic") == "kt/gateways/kt-unplug/status"]
    words = [("degraded" if "degraded" in s else "online" if "online" in s else s) for _, s in statuses]
    collapsed = [w for i, w in enumerate(words) if i == 0 or words[i - 1] != w]
    checks.check("unplug/mqtt: status online, degraded, online", collapsed[:3] == ["online", "degraded", "online"],
                 "status payloads %s" % [s for _, s in statuses], phase)
    if statuses:
        last_online = max(i for (i, _), w in zip(statuses, words) if w == "online")
        after = [r for r in messages[last_online + 1:] if r.get("topic", "").startswith(LOBBY_TOPIC.format(phase=phase) + "/ranging")]
        checks.check("unplug/mqtt: ranging resumes after the adapter returns", len(after) >= 2,
                     "%d ranging messages after the last online" % len(after), phase)
    events = events_by_topic(messages, phase)
    checks.check("unplug/mqtt: X and lobby entered once and never exited",
                 events["X"] == ["enter"] and events["lobby"] == ["enter"], "events %s" % events, phase)
    code = checks.text(phase, "agent.code").strip()
    alive = checks.text(phase, "agent.alive").strip()
    checks.check("unplug/mqtt: agent still running at the end, exit 0 on SIGTERM", alive == "yes" and code == "0",
                 "running at the end: %s, exit code %s" % (alive or "?", code or "missing"), phase)


def listen_phase(checks, agent, scenarios, live_run):
    phase = "listen"
    log = controller_log(checks, phase)
    stamps = marks(checks, phase)
    start, stop = stamps.get("agent-start"), stamps.get("agent-stop")
    enables = [row for row in log if row.get("event") == "scan" and row.get("mode") == "legacy"]
    checks.check("listen: hcitool drove a legacy scan before the agent started",
                 bool(enables) and start is not None and enables[0]["time"] < start, "scan enables %s" % enables, phase)
    if start is None or stop is None:
        checks.check("listen: the job marked the agent's start and stop", False, "marks %s" % stamps, phase)
        return
    snoop = checks.path(phase, "btmon.snoop")
    try:
        every = btsnoop_commands(snoop)
        commands = [t for t in every if start <= t <= stop]
        # hcitool's own commands before the agent started prove that btmon saw the traffic at all.
        checks.check("listen: btmon logged hcitool's scan commands", any(t < start for t in every),
                     "%d commands in the btmon log, none before the agent started" % len(every), phase)
        checks.check("listen: btmon saw no HCI command while the agent ran", not commands,
                     "%d commands between agent start and stop" % len(commands), phase)
    except (OSError, ValueError) as error:
        checks.check("listen: btmon log readable", False, str(error), phase)
    received = [row for row in log if row.get("event") == "command" and start <= row["time"] <= stop]
    checks.check("listen: the controller received no command while the agent ran", not received,
                 "commands %s" % [row["opcode"] for row in received], phase)
    if live_run:
        events = events_by_topic(read_jsonl(checks.path(phase, "mqtt")), phase)
        source = "mqtt"
    else:
        capture = checks.path(phase, "driver.btsnoop")
        code, rows, err = replay(agent, capture, os.path.join(scenarios, phase + ".yaml")) if os.path.exists(capture) else (1, [], "no capture")
        events = events_by_topic(rows, phase)
        source = "replay"
    checks.check("listen/%s: X enters then exits" % source, events["X"] == ["enter", "exit"], "X events %s" % events["X"], phase)


ADV_TOPIC = "kt/%s/7/13/kt-{phase}/event" % UUID


def advertise_phase(checks, phase, extended):
    """'beacon2mqtt advertise' on hci1 → the linked hci0: BlueZ and 'beacon2mqtt run' receive it."""
    command_set = "extended" if extended else "legacy"
    log = controller_log(checks, phase)
    stamps = marks(checks, phase)
    adv_log = checks.text(phase, "advertise.log")
    checks.check("%s: the advertiser used the %s LE advertising commands" % (phase, command_set),
                 "advertising with the %s LE commands" % command_set in adv_log, adv_log[-2000:], phase)
    commands = [row for row in log if row.get("event") == "advertiser-command"]
    opcodes = [row["opcode"] for row in commands]
    wanted = ["0x2036", "0x2035", "0x2037", "0x2039"] if extended else ["0x2005", "0x2006", "0x2008", "0x200a"]
    sent = [op for op in opcodes if op in wanted]
    checks.check("%s: set-up sent %s in order" % (phase, " ".join(wanted)),
                 any(sent[i:i + 4] == wanted for i in range(len(sent))), "advertiser commands %s" % opcodes, phase)
    stop = stamps.get("advertiser-stop")
    after = [row for row in commands if stop is not None and row["time"] >= stop]
    final = after[-1]["state"] if after else None
    off = final is not None and final["legacy"] == "off" and all(v == "off" for v in final["sets"].values())
    removed = final is not None and "10" not in final["sets"]
    checks.check("%s: SIGTERM disabled advertising%s" % (phase, " and removed set 0x0A" if extended else ""),
                 off and (removed or not extended), "state after the stop %s (commands %s)"
                 % (final, [row["opcode"] for row in after]), phase)
    checks.check("%s: the advertiser exited 0 on SIGTERM" % phase, checks.text(phase, "advertise.code").strip() == "0",
                 "exit code %s" % checks.text(phase, "advertise.code").strip(), phase)
    btmgmt = checks.text(phase, "btmgmt.log")
    checks.check("%s: btmgmt find (kernel discovery) found the advertiser" % phase, "dev_found:" in btmgmt,
                 btmgmt[-1500:], phase)
    btmon = checks.text(phase, "btmon.txt")
    # btmon decodes the manufacturer data of the kernel's Device Found events and of the reports.
    checks.check("%s: btmon shows the iBeacon manufacturer data" % phase,
                 "Device Found" in btmon and "Company: Apple, Inc. (76)" in btmon and "Type: iBeacon (2)" in btmon,
                 btmon[-3000:], phase)
    messages = read_jsonl(checks.path(phase, "mqtt"))
    events = [(payload_of(r) or {}).get("event") for r in messages if r.get("topic") == ADV_TOPIC.format(phase=phase)
              and isinstance(payload_of(r), dict)]
    checks.check("%s/mqtt: run on hci0 published enter, then exit once the advertiser stopped" % phase,
                 events == ["enter", "exit"], "events on %s: %s" % (ADV_TOPIC.format(phase=phase), events), phase)
    bodies = event_payloads(messages, ADV_TOPIC.format(phase=phase))
    exits = [parse_time(b["timestamp"]) for b in bodies if b.get("event") == "exit" and "timestamp" in b]
    checks.check("%s/mqtt: the exit came after the advertiser stopped" % phase,
                 bool(exits) and stop is not None and exits[0] >= stop, "exit at %s, stop at %s" % (exits, stop), phase)
    alive = checks.text(phase, "agent.alive").strip()
    code = checks.text(phase, "agent.code").strip()
    checks.check("%s: run kept running and exited 0 on SIGTERM" % phase, alive == "yes" and code == "0",
                 "running at the end: %s, exit code %s" % (alive or "?", code or "missing"), phase)


def advertise_daemon_phase(checks, phase, extended):
    """'beacon2mqtt run' with 'advertise:' on hci1 scans and advertises; BlueZ and a 'run' on hci0 see it;
    a configuration layer over MQTT moves it; SIGTERM ends it (scenario 7)."""
    command_set = "extended" if extended else "legacy"
    log = controller_log(checks, phase)
    stamps = marks(checks, phase)
    agent_log = checks.text(phase, "agent.log")
    checks.check("%s: the daemon on hci1 scans and advertises with the %s LE commands" % (phase, command_set),
                 "scanning with the %s LE commands" % command_set in agent_log
                 and "advertising with the %s LE commands" % command_set in agent_log, agent_log[-2000:], phase)
    commands = [row for row in log if row.get("event") == "advertiser-command"]
    opcodes = [row["opcode"] for row in commands]
    wanted = ["0x2036", "0x2035", "0x2037", "0x2039"] if extended else ["0x2005", "0x2006", "0x2008", "0x200a"]
    sent = [op for op in opcodes if op in wanted]
    checks.check("%s: the daemon's set-up sent %s in order, after LE Read Supported States" % (phase, " ".join(wanted)),
                 any(sent[i:i + 4] == wanted for i in range(len(sent))) and "0x201c" in opcodes
                 and opcodes.index("0x201c") < opcodes.index(wanted[1]), "advertiser commands %s" % opcodes, phase)
    scanning_and_advertising = [row for row in commands if row["state"].get("scan") != "off"
                                and (row["state"]["legacy"] == "on" or "on" in row["state"]["sets"].values())]
    checks.check("%s: hci1 scanned and advertised at the same time" % phase, bool(scanning_and_advertising),
                 "controller states %s" % [row["state"] for row in commands][-5:], phase)
    # The interval rule: 50 ms asked; a 4.2 controller (legacy scenario) must get 100 ms (0x00A0).
    params = [row["params"] for row in commands if row["opcode"] == ("0x2036" if extended else "0x2006")]
    units = [int.from_bytes(bytes.fromhex(p[6:12] if extended else p[0:4]), "little") for p in params]
    expected_units = 0x50 if extended else 0xA0
    checks.check("%s: advertising interval %d ms on air (50 ms asked, %s)" % (phase, expected_units * 0.625, "5.2 controller" if extended else "4.2 controller: raised"),
                 bool(units) and set(units) == {expected_units}, "interval units %s" % units, phase)
    if not extended:
        checks.check("%s: the 4.2 controller's version was read and the raise logged" % phase,
                     "0x1001" in opcodes and "predates Bluetooth 5.0 (HCI_Version 8)" in agent_log, agent_log[-1500:], phase)
    messages = read_jsonl(checks.path(phase, "mqtt"))
    z_events = [b.get("event") for b in event_payloads(messages, "kt/%s/7/99/kt-%s/event" % (UUID, phase))]
    checks.check("%s/mqtt: the advertising daemon's own scan published Z's enter" % phase, z_events[:1] == ["enter"],
                 "Z events %s" % z_events, phase)
    announcements = event_payloads(messages, "kt/gateways/kt-%s/advertising" % phase)
    states = [(a.get("state"), (a.get("beacon") or {}).get("minor"), a.get("interval_ms"), a.get("command_set"))
              for a in announcements]
    on_air = ("advertising", 13, 50 if extended else 100, command_set)
    moved = ("advertising", 15, 50 if extended else 100, command_set)
    # Published on connect (starting, or already on air), then on each change; SIGTERM ends it `stopped`.
    checks.check("%s/mqtt: retained advertising topic says %s, and stopped at the end" % (phase, on_air),
                 on_air in states and states[0][0] in ("starting", "advertising") and states[-1][0] == "stopped",
                 "states %s" % states, phase)
    checks.check("%s/mqtt: after the layer, advertising minor 15" % phase, moved in states and states.index(moved) > states.index(on_air)
                 if on_air in states else False, "states %s" % states, phase)
    effective = [payload_of(r) for r in messages if r.get("topic") == "kt/gateways/kt-%s/config" % phase]
    checks.check("%s/mqtt: the gateway layer was applied (effective configuration says minor 15)" % phase,
                 any(isinstance(e, dict) and ((e.get("config") or {}).get("advertise") or {}).get("minor") == 15 for e in effective),
                 "effective configurations %s" % effective[-1:], phase)
    btmgmt = checks.text(phase, "btmgmt.log")
    checks.check("%s: btmgmt find (kernel discovery on hci0) found the daemon's advertisement" % phase, "dev_found:" in btmgmt,
                 btmgmt[-1500:], phase)
    btmon = checks.text(phase, "btmon.txt")
    checks.check("%s: btmon shows the daemon's iBeacon manufacturer data" % phase,
                 "Device Found" in btmon and "Company: Apple, Inc. (76)" in btmon and "Type: iBeacon (2)" in btmon,
                 btmon[-3000:], phase)
    scanner = "kt-%s-scanner" % phase
    first = [payload_of(r) for r in messages if r.get("topic") == "kt/%s/7/13/%s/event" % (UUID, scanner)]
    second = [payload_of(r) for r in messages if r.get("topic") == "kt/%s/7/15/%s/event" % (UUID, scanner)]
    checks.check("%s/mqtt: run on hci0 saw 7/13 enter and exit, then 7/15 enter and exit" % phase,
                 [b.get("event") for b in first] == ["enter", "exit"] and [b.get("event") for b in second] == ["enter", "exit"],
                 "7/13 %s, 7/15 %s" % ([b.get("event") for b in first], [b.get("event") for b in second]), phase)
    layer, stop = stamps.get("layer-set"), stamps.get("advertiser-stop")
    if len(first) == 2 and len(second) == 2 and layer and stop:
        times = [parse_time(b["timestamp"]) for b in (first[1], second[0], second[1])]
        checks.check("%s/mqtt: 7/13 exits and 7/15 enters after the layer, 7/15 exits after SIGTERM" % phase,
                     times[0] > layer and times[1] > layer and times[2] > stop,
                     "7/13 exit %.2f, 7/15 enter %.2f, exit %.2f; layer %.2f, stop %.2f" % (times[0], times[1], times[2], layer, stop), phase)
    after = [row for row in commands if stop is not None and row["time"] >= stop]
    final = after[-1]["state"] if after else None
    off = final is not None and final["legacy"] == "off" and all(v == "off" for v in final["sets"].values()) \
        and final.get("scan") == "off" and (not extended or "10" not in final["sets"])
    checks.check("%s: SIGTERM disabled advertising%s and the scan" % (phase, ", removed set 0x0A" if extended else ""), off,
                 "state after the stop %s (commands %s)" % (final, [row["opcode"] for row in after]), phase)
    if not extended:
        calibration_checks(checks, phase, messages, scanner)
    for who, suffix in (("advertising daemon", "agent"), ("scanner on hci0", "scanner")):
        alive = checks.text(phase, suffix + ".alive").strip()
        code = checks.text(phase, suffix + ".code").strip()
        checks.check("%s: the %s kept running and exited 0 on SIGTERM" % (phase, who), alive == "yes" and code == "0",
                     "running at the end: %s, exit code %s" % (alive or "?", code or "missing"), phase)


def calibration_checks(checks, phase, messages, scanner):
    """'beacon2mqtt locate' beside the two gateways fits the scanner's offset from what it hears of the
    advertising gateway 2 m away: the link reports it at -55 dBm, the model at measured power -59 and
    exponent 2 expects -59 - 20 log10(2) = -65.02, so the scanner reads 10.02 dB hot and gets -10.02."""
    fits = [payload_of(r) for r in messages if r.get("topic") == "kt/locators/kt-locator/calibration"]
    fits = [f for f in fits if isinstance(f, dict)]
    offsets = [(f.get("offsets") or {}).get(scanner) for f in fits]
    fitted = [f for f, o in zip(fits, offsets) if o is not None]
    expected = -59 - 20 * math.log10(2) + 55
    checks.check("%s/mqtt: locate fitted the scanner's offset from hearing the advertising gateway (%.2f dB expected)"
                 % (phase, expected),
                 bool(fitted) and all(abs(o - expected) <= 0.5 for o in offsets if o is not None)
                 and all(f.get("exponent_fitted") is False and f.get("path_loss_exponent") == 2 for f in fitted),
                 "calibrations %s" % fits[-3:], phase)
    code = checks.text(phase, "locate.code").strip()
    checks.check("%s: locate exited 0 on SIGTERM" % phase, code == "0",
                 "exit code %s\n%s" % (code or "missing", checks.text(phase, "locate.log")[-1500:]), phase)


IRK_TOPIC = "kt/devices/phone/kt-irk/event"
IRK_FIRST, IRK_LAST = "70:81:94:0d:fb:aa", "7a:a3:c3:cd:b8:31"
IRK_STRANGERS = ("4a:12:a7:59:8b:d6", "6e:e9:86:21:de:af", "79:51:c9:2b:a0:be")


def irk_phase(checks, agent, scenarios, live_run):
    """A phone by its IRK (issue 19): four address rotations are one device, one enter, one exit."""
    phase = "irk"
    if live_run:
        messages, source = read_jsonl(checks.path(phase, "mqtt")), "mqtt"
    else:
        capture = checks.path(phase, "driver.btsnoop")
        code, messages, err = replay(agent, capture, os.path.join(scenarios, phase + ".yaml")) if os.path.exists(capture) else (1, [], "no capture")
        source = "replay"
    bodies = event_payloads(messages, IRK_TOPIC)
    events = [b.get("event") for b in bodies]
    checks.check("irk/%s: the phone enters once and exits once across three rotations" % source,
                 events == ["enter", "exit"], "events %s" % events, phase)
    if events == ["enter", "exit"]:
        checks.check("irk/%s: enter from the first address, exit naming the last, identity irk" % source,
                     bodies[0].get("address") == IRK_FIRST and bodies[1].get("address") == IRK_LAST
                     and all(b.get("identity") == "irk" for b in bodies), "payloads %s" % bodies, phase)
    leaked = [r.get("topic") for r in messages if any(a in json.dumps(r) for a in IRK_STRANGERS)]
    checks.check("irk/%s: nothing of the strangers' addresses is published" % source, not leaked, "%s" % leaked[:3], phase)


def main():
    job, agent, scenarios = sys.argv[1:4]
    checks = Checks(job)
    features = open(os.path.join(job, "features")).read()
    live_run = "LIVE_RUN=1" in features
    code = open(os.path.join(job, "exit-code")).read().strip() if os.path.exists(os.path.join(job, "exit-code")) else None
    checks.check("boot: the guest job ran to the end", code == "0", "guest job exit code %s" % code, "boot")
    phases = open(os.path.join(scenarios, "phases")).read().split()
    for phase in phases:
        if phase == "privilege":
            privilege_phase(checks)
        elif phase == "legacy":
            scan_phase(checks, agent, scenarios, "legacy", live_run, expect_y=False)
        elif phase == "extended":
            scan_phase(checks, agent, scenarios, "extended", live_run, expect_y=True)
        elif phase == "burst":
            burst_phase(checks, phase, live_run)
        elif phase == "cadence":
            cadence_phase(checks, agent, scenarios, phase, live_run)
        elif phase == "unplug":
            unplug_phase(checks, live_run)
        elif phase == "listen":
            listen_phase(checks, agent, scenarios, live_run)
        elif phase == "irk":
            irk_phase(checks, agent, scenarios, live_run)
        elif phase in ("advertise-daemon-legacy", "advertise-daemon-extended"):
            advertise_daemon_phase(checks, phase, extended=phase.endswith("extended"))
        elif phase in ("advertise-legacy", "advertise-extended"):
            advertise_phase(checks, phase, extended=phase.endswith("extended"))

    failed_phases = sorted({r[3] for r in checks.results if r[0] == "FAIL" and r[3]})
    if failed_phases:
        dump("guest console", os.path.join(job, "console.log"))
        dump("guest job log", os.path.join(job, "job.log"))
        for phase in failed_phases:
            for suffix in ("agent.log", "scanner.log", "record.log", "controller.err", "hcitool.log", "sub.log"):
                dump("%s %s" % (phase, suffix), checks.path(phase, suffix), tail=80)
    passed = sum(1 for r in checks.results if r[0] == "PASS")
    failed = sum(1 for r in checks.results if r[0] == "FAIL")
    skipped = sum(1 for r in checks.results if r[0] == "SKIP")
    print("kernel tests: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


def dump(title, path, tail=200):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return
    if not lines:
        return
    print("----- %s (%s, last %d lines) -----" % (title, path, min(tail, len(lines))))
    for line in lines[-tail:]:
        print(line)


if __name__ == "__main__":
    sys.exit(main())
