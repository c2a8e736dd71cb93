#!/usr/bin/env python3
"""A scripted LE controller on /dev/vhci, for the kernel tests (stdlib only; runs in the guest).

The kernel's vhci driver turns each open /dev/vhci into an hciN device and relays HCI packets, H4
framed, both ways. This controller answers the commands the 6.1 kernel sends while setting a controller
up (a table of Command Complete return parameters), the legacy and extended scan commands, and, while
scanning is on, sends one advertising report per beacon per advertising interval:

* LE Advertising Report (Core Spec Vol 4, Part E, §7.7.65.2) after LE Set Scan Enable,
* LE Extended Advertising Report (§7.7.65.13) after LE Set Extended Scan Enable.

With an "advertiser" in the scenario, a second controller (the next hciN) shares the first one's link:
it answers the legacy and extended advertising commands, and whatever it advertises the first one
reports while it scans, as one more beacon. So a program advertising on one adapter is received by a
scanner on the other, both through the real kernel. The second controller scans too: while it does,
it reports its own scripted "beacons" (always on), so a daemon that scans and advertises on it at
once is seen doing both. Its "hci_version" (default 0x0B, 5.2) lets a scenario play a 4.2 controller.

The scenario (JSON, see docs/testing.md, “The virtual controller”) gives the beacons, their RSSI over time
(piecewise linear), start and stop times, and the times at which the controller vanishes (closes
/dev/vhci) and returns with the same address. Scenario time starts at the first scan enable.

Every command and every state change is logged, one JSON object per line, with CLOCK_REALTIME
timestamps, so that the host can line the log up with the agent's messages.
"""
import argparse
import json
import os
import select
import signal
import struct
import sys
import time

H4_COMMAND, H4_EVENT, H4_VENDOR = 0x01, 0x04, 0xFF
EVT_COMMAND_COMPLETE, EVT_LE_META = 0x0E, 0x3E
SUB_ADV_REPORT, SUB_EXT_ADV_REPORT = 0x02, 0x0D

LE_SET_SCAN_PARAMETERS, LE_SET_SCAN_ENABLE = 0x200B, 0x200C
LE_SET_EXT_SCAN_PARAMETERS, LE_SET_EXT_SCAN_ENABLE = 0x2041, 0x2042


def supported_commands(extended, advertiser=False):
    """Read Local Supported Commands mask (§6.27): only what this controller really answers."""
    mask = bytearray(64)

    def bit(octet, n):
        mask[octet] |= 1 << n

    bit(5, 6)   # Set Event Mask
    bit(5, 7)   # Reset
    bit(14, 3)  # Read Local Version Information
    bit(14, 5)  # Read Local Supported Features
    bit(15, 1)  # Read BD_ADDR
    bit(25, 0)  # LE Set Event Mask
    bit(25, 1)  # LE Read Buffer Size
    bit(25, 2)  # LE Read Local Supported Features
    bit(25, 4)  # LE Set Random Address
    bit(26, 2)  # LE Set Scan Parameters
    bit(26, 3)  # LE Set Scan Enable
    bit(26, 6)  # LE Read Filter Accept List Size
    bit(26, 7)  # LE Clear Filter Accept List
    bit(28, 3)  # LE Read Supported States
    if extended:
        bit(37, 5)  # LE Set Extended Scan Parameters
        bit(37, 6)  # LE Set Extended Scan Enable
    if advertiser:
        bit(25, 5)  # LE Set Advertising Parameters
        bit(25, 7)  # LE Set Advertising Data
        bit(26, 1)  # LE Set Advertising Enable
        if extended:
            bit(36, 1)  # LE Set Advertising Set Random Address
            bit(36, 2)  # LE Set Extended Advertising Parameters
            bit(36, 3)  # LE Set Extended Advertising Data
            bit(36, 5)  # LE Set Extended Advertising Enable
            bit(37, 0)  # LE Remove Advertising Set
    return bytes(mask)


def return_parameters(opcode, address, extended, advertiser=False, hci_version=0x0B):
    """Return parameters after the status octet, or None for a status-only reply."""
    if opcode == 0x1002:  # Read Local Supported Commands (§7.4.2)
        return supported_commands(extended, advertiser)
    if opcode == 0x1001:  # Read Local Version Information (§7.4.1): 5.2 by default, Linux Foundation
        return struct.pack("<BHBHH", hci_version, 0, hci_version, 0x05F1, 0)
    if opcode == 0x1003:  # Read Local Supported Features (§7.4.3): LE only (octet 4: LE, no BR/EDR)
        return bytes([0, 0, 0, 0, 0x60, 0, 0, 0])
    if opcode == 0x1009:  # Read BD_ADDR (§7.4.6), little-endian
        return address
    if opcode == 0x1005:  # Read Buffer Size (§7.4.5)
        return struct.pack("<HBHH", 1021, 0, 8, 0)
    if opcode == 0x2002:  # LE Read Buffer Size (§7.8.2)
        return struct.pack("<HB", 251, 8)
    if opcode == 0x2003:  # LE Read Local Supported Features (§7.8.3): bit 12 = LE Extended Advertising
        return bytes([0, 0x10 if extended else 0, 0, 0, 0, 0, 0, 0])
    if opcode == 0x201C:  # LE Read Supported States (§7.8.27)
        return bytes([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, 0, 0])
    if opcode == 0x200F:  # LE Read Filter Accept List Size (§7.8.14)
        return bytes([8])
    if opcode == 0x2007:  # LE Read Advertising Physical Channel Tx Power (§7.8.6)
        return bytes([0])
    if opcode == 0x202A:  # LE Read Resolving List Size (§7.8.41)
        return bytes([0])
    if opcode == 0x202F:  # LE Read Maximum Data Length (§7.8.46)
        return struct.pack("<HHHH", 27, 328, 27, 328)
    if opcode == 0x2023:  # LE Read Suggested Default Data Length (§7.8.34)
        return struct.pack("<HH", 27, 328)
    if opcode == 0x203B:  # LE Read Number of Supported Advertising Sets (§7.8.58)
        return bytes([0])
    if opcode == 0x203A:  # LE Read Maximum Advertising Data Length (§7.8.57)
        return struct.pack("<H", 31)
    if opcode == 0x2036:  # LE Set Extended Advertising Parameters (§7.8.53): Selected_TX_Power
        return struct.pack("<b", 0)
    if opcode == 0x204B:  # LE Read Transmit Power (§7.8.74)
        return struct.pack("<bb", -20, 10)
    if opcode == 0x1004:  # Read Local Extended Features (§7.4.4): page 0 only
        return bytes([0, 0]) + bytes([0, 0, 0, 0, 0x60, 0, 0, 0])
    if opcode == 0x100B:  # Read Local Supported Codecs (§7.4.8): none
        return bytes([0, 0])
    return None


# Status-only commands we know; anything else is answered the same way but logged as unknown.
KNOWN_STATUS_ONLY = {
    0x0C03, 0x0C01, 0x0C63, 0x0C05, 0x0C16, 0x0C13, 0x0C6D, 0x0C7A, 0x0C5B,
    0x2001, 0x2005, 0x2006, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C, 0x2010, 0x2011, 0x2012,
    0x2024, 0x2027, 0x2029, 0x202D, 0x202E, 0x2031, 0x2035, 0x2036, 0x2037, 0x2039, 0x203C, 0x203D,
    0x2041, 0x2042, 0x2074,
}


def ibeacon_ad(uuid, major, minor, tx):
    """Flags + Apple manufacturer data (company 0x004C little-endian; UUID, major, minor big-endian)."""
    body = bytes([0x4C, 0x00, 0x02, 0x15]) + bytes.fromhex(uuid.replace("-", "")) + struct.pack(">HHb", major, minor, tx)
    return bytes([2, 0x01, 0x06, len(body) + 1, 0xFF]) + body


def parse_address(text):
    return bytes(reversed(bytes.fromhex(text.replace(":", ""))))


class Beacon:
    def __init__(self, spec):
        self.name = spec["name"]
        # "addresses": [[t, "aa:bb:.."], ...] rotates the address (a phone's resolvable private
        # address); "data" (hex AD structures) replaces the iBeacon frame, as a phone sends no beacon.
        self.schedule = [(t, parse_address(a)) for t, a in spec.get("addresses", [[0, spec.get("address", "")]])]
        self.address = self.schedule[0][1]
        self.data = bytes.fromhex(spec["data"]) if "data" in spec else \
            ibeacon_ad(spec["uuid"], spec["major"], spec["minor"], spec.get("tx", -59))
        self.interval = spec.get("interval", 0.1)
        self.start = spec.get("start", 0.0)
        self.stop = spec.get("stop", float("inf"))
        self.rssi = spec.get("rssi", [[0, -60]])
        # Extended (non-legacy) advertising PDUs are only seen by an extended scan (§4.4.2.x, Vol 6 Part B).
        self.extended_pdu = spec.get("extended_pdu", False)
        self.next_due = 0.0

    def rssi_at(self, t):
        points = self.rssi
        if t <= points[0][0]:
            return points[0][1]
        for (t0, r0), (t1, r1) in zip(points, points[1:]):
            if t <= t1:
                return round(r0 + (r1 - r0) * (t - t0) / (t1 - t0))
        return points[-1][1]

    def active(self, t):
        return self.start <= t < self.stop

    def address_at(self, t):
        return [a for t0, a in self.schedule if t0 <= t][-1] if self.schedule[0][0] <= t else self.schedule[0][1]


class LinkAdvertiser:
    """The second controller's advertising state (Core Spec Vol 4, Part E, §7.8.4–7.8.9 legacy,
    §7.8.52–7.8.59 extended), and what the first controller's scan receives of it."""

    def __init__(self, spec):
        self.address = parse_address(spec.get("address", "c0:de:00:00:00:02"))
        self.extended = spec.get("extended", False)
        self.hci_version = spec.get("hci_version", 0x0B)
        # What this controller's own scan reports (legacy or extended reports, as it was enabled).
        self.beacons = [Beacon(b) for b in spec.get("beacons", [])]
        self.scan_mode = None
        self.reset()

    def reset(self):
        self.legacy = {"enabled": False, "data": b"", "interval": 1.28, "random": None, "own": 0}
        self.sets = {}  # handle -> same keys

    def handle(self, opcode, params):
        """Applies one command; returns the status to answer."""
        legacy = self.legacy
        if opcode == 0x0C03:
            self.reset()
            self.scan_mode = None
        elif opcode == 0x200C and len(params) >= 2:
            self.scan_mode = "legacy" if params[0] else None
        elif opcode == 0x2042 and len(params) >= 2:
            self.scan_mode = "extended" if params[0] else None
        elif opcode == 0x2005 and len(params) >= 6:
            legacy["random"] = params[:6]
        elif opcode == 0x2006 and len(params) >= 15:
            if legacy["enabled"]:
                return 0x0C  # Command Disallowed while advertising (§7.8.5)
            legacy["interval"] = struct.unpack_from("<H", params, 0)[0] * 0.000625
            legacy["own"] = params[5]
        elif opcode == 0x2008 and len(params) >= 1:
            legacy["data"] = bytes(params[1:1 + params[0]])
        elif opcode == 0x200A and len(params) >= 1:
            legacy["enabled"] = bool(params[0])
        elif opcode == 0x2036 and len(params) >= 25:
            entry = self.sets.setdefault(params[0], {"enabled": False, "data": b"", "random": None})
            if entry["enabled"]:
                return 0x0C
            entry["interval"] = int.from_bytes(params[3:6], "little") * 0.000625
            entry["own"] = params[10]
        elif opcode == 0x2035 and len(params) >= 7:
            if params[0] not in self.sets:
                return 0x42  # Unknown Advertising Identifier
            self.sets[params[0]]["random"] = params[1:7]
        elif opcode == 0x2037 and len(params) >= 4:
            if params[0] not in self.sets:
                return 0x42
            self.sets[params[0]]["data"] = bytes(params[4:4 + params[3]])
        elif opcode == 0x2039 and len(params) >= 2:
            handles = [params[2 + 4 * i] for i in range(params[1])] if params[1] else list(self.sets)
            if any(h not in self.sets for h in handles):
                return 0x42
            for h in handles:
                self.sets[h]["enabled"] = bool(params[0])
        elif opcode == 0x203D:  # LE Clear Advertising Sets
            if any(e["enabled"] for e in self.sets.values()):
                return 0x0C
            self.sets.clear()
        elif opcode == 0x203C and len(params) >= 1:
            if params[0] not in self.sets:
                return 0x42
            if self.sets[params[0]]["enabled"]:
                return 0x0C
            del self.sets[params[0]]
        return 0

    def state(self):
        return {"legacy": "on" if self.legacy["enabled"] else "off",
                "sets": {str(h): "on" if e["enabled"] else "off" for h, e in self.sets.items()},
                "scan": self.scan_mode or "off"}

    def adverts(self):
        """(key, address, data, interval) of everything on air now."""
        out = []
        for key, entry in [("legacy", self.legacy)] + [("set%d" % h, e) for h, e in self.sets.items()]:
            if entry["enabled"]:
                address = entry["random"] if entry["own"] == 1 and entry["random"] else self.address
                out.append((key, address, entry["data"], max(entry.get("interval", 0.1), 0.02)))
        return out


class LinkBeacon:
    """What the scanner reports of one advert on the shared link."""

    def __init__(self, name, address, data, interval):
        self.name, self.address, self.data, self.interval = name, address, data, interval
        self.extended_pdu = False


class Controller:
    def __init__(self, scenario, log):
        self.scenario = scenario
        self.log_file = log
        self.address = parse_address(scenario.get("address", "c0:de:00:00:00:01"))
        self.placeholder_address = parse_address(scenario.get("placeholder_address", "c0:de:00:00:00:99"))
        self.extended = scenario.get("extended", False)
        self.beacons = [Beacon(b) for b in scenario.get("beacons", [])]
        self.vanish = [(v["at"], v["for"], v.get("new_index", True)) for v in scenario.get("vanish", [])]
        # Scenario time at which the controller stops (closes /dev/vhci and exits), and how long it
        # waits for the first scan enable before giving up.
        self.end = scenario.get("end", 60)
        # "scan": scenario time starts at the first scan enable; "signal": at SIGUSR1, for phases
        # where another program scans before the agent under test is listening.
        self.clock = scenario.get("clock", "scan")
        self.clock_requested = False
        self.startup_timeout = scenario.get("startup_timeout", 90)
        self.fd = None
        self.index = None
        self.placeholder = None
        self.scan_mode = None  # None, "legacy" or "extended"
        self.filter_duplicates = False
        self.reported = set()
        self.link = LinkAdvertiser(scenario["advertiser"]) if "advertiser" in scenario else None
        self.link_fd = None
        self.link_due = {}
        self.t0 = None
        self.returns_at = None
        self.buffers = {}
        # Events written to the primary controller (any index it had): what a host socket on it can
        # read at most, whatever a recorder beside it kept.
        self.events_sent = 0

    def log(self, **fields):
        fields["time"] = time.time()
        if self.t0 is not None:
            fields["t"] = round(time.monotonic() - self.t0, 3)
        self.log_file.write(json.dumps(fields) + "\n")
        self.log_file.flush()

    def scenario_time(self):
        return None if self.t0 is None else time.monotonic() - self.t0

    # ----- vhci ---------------------------------------------------------------------------------
    def open_vhci(self):
        """Opens /dev/vhci and creates the primary controller now (vendor packet, opcode 0x00) rather
        than after the driver's one-second timeout; the driver answers with the new index."""
        fd = os.open("/dev/vhci", os.O_RDWR)
        os.write(fd, bytes([H4_VENDOR, 0x00]))
        reply = os.read(fd, 4)
        if len(reply) != 4 or reply[0] != H4_VENDOR:
            raise RuntimeError("unexpected vhci create reply %s" % reply.hex())
        return fd, struct.unpack_from("<H", reply, 2)[0]

    def appear(self):
        self.fd, self.index = self.open_vhci()
        self.buffers[self.fd] = b""
        self.log(event="appear", index=self.index, address=self.address[::-1].hex(":"))
        if self.link is not None and self.link_fd is None:
            self.link_fd, index = self.open_vhci()
            self.buffers[self.link_fd] = b""
            self.log(event="advertiser-appear", index=index, address=self.link.address[::-1].hex(":"),
                     extended=self.link.extended)

    def disappear(self, new_index):
        os.close(self.fd)
        del self.buffers[self.fd]
        self.log(event="vanish", index=self.index)
        self.old_index, self.new_index = self.index, new_index
        self.fd, self.index = None, None
        self.scan_mode = None

    def reappear(self):
        if self.new_index and self.placeholder is None:
            # A placeholder controller takes the lowest free index (the old one, once every socket
            # has let go of the vanished device), so the real one comes back under a new index, as
            # after a USB reset. Opened only now: sockets hold the old index for a while after the
            # device is gone.
            self.placeholder, placeholder_index = self.open_vhci()
            self.buffers[self.placeholder] = b""
            self.log(event="placeholder", index=placeholder_index, old_index=self.old_index)
        self.appear()

    # ----- HCI ----------------------------------------------------------------------------------
    def send_event(self, fd, code, params):
        os.write(fd, bytes([H4_EVENT, code, len(params)]) + params)
        if fd != self.link_fd:
            self.events_sent += 1

    def command_complete(self, fd, opcode, params):
        self.send_event(fd, EVT_COMMAND_COMPLETE, struct.pack("<BH", 1, opcode) + params)

    def handle_command(self, fd, opcode, params):
        if fd == self.link_fd:
            extra = return_parameters(opcode, self.link.address, self.link.extended, advertiser=True,
                                      hci_version=self.link.hci_version)
            status = self.link.handle(opcode, params)
            self.log(event="advertiser-command", opcode="0x%04x" % opcode, params=params.hex(), status=status,
                     state=self.link.state())
            self.command_complete(fd, opcode, bytes([status]) + ((extra or b"") if status == 0 else b""))
            return
        is_main = fd == self.fd
        address = self.address if is_main else self.placeholder_address
        extra = return_parameters(opcode, address, self.extended)
        known = extra is not None or opcode in KNOWN_STATUS_ONLY
        self.log(event="command", index=self.index if is_main else None, opcode="0x%04x" % opcode,
                 params=params.hex(), known=known)
        if is_main and opcode == LE_SET_SCAN_ENABLE and len(params) >= 2:
            self.set_scan("legacy" if params[0] else None, params[1])
        elif is_main and opcode == LE_SET_EXT_SCAN_ENABLE and len(params) >= 2:
            self.set_scan("extended" if params[0] else None, params[1])
        elif opcode == 0x0C03 and is_main:  # Reset stops scanning (§7.3.2)
            self.set_scan(None, 0)
        self.command_complete(fd, opcode, bytes([0]) + (extra or b""))

    def start_clock(self, reason):
        if self.t0 is None:
            self.t0 = time.monotonic()
            self.log(event="clock-start", reason=reason)

    def set_scan(self, mode, filter_duplicates):
        if mode and self.clock == "scan":
            self.start_clock("scan enabled")
        if mode and not self.scan_mode:
            self.reported.clear()
        self.scan_mode = mode
        self.filter_duplicates = bool(filter_duplicates)
        self.log(event="scan", mode=mode or "off", filter_duplicates=self.filter_duplicates)

    def read_packets(self, fd):
        try:
            chunk = os.read(fd, 4096)
        except OSError as error:
            self.log(event="read-error", error=str(error))
            return
        data = self.buffers.get(fd, b"") + chunk
        while data:
            if data[0] == H4_COMMAND:
                if len(data) < 4 or len(data) < 4 + data[3]:
                    break
                opcode, length = struct.unpack_from("<HB", data, 1)
                self.handle_command(fd, opcode, data[4:4 + length])
                data = data[4 + length:]
            elif data[0] == 0x02 and len(data) >= 5:  # ACL data: none expected, dropped
                length = struct.unpack_from("<H", data, 3)[0]
                if len(data) < 5 + length:
                    break
                data = data[5 + length:]
            else:
                self.log(event="unexpected-packet", data=data.hex())
                data = b""
        self.buffers[fd] = data

    def report(self, beacon, rssi, fd=None, scan_mode=None):
        fd = self.fd if fd is None else fd
        scan_mode = scan_mode or self.scan_mode
        if scan_mode == "legacy":
            if beacon.extended_pdu:
                return
            # One report: ADV_NONCONN_IND (0x03), random address.
            params = bytes([SUB_ADV_REPORT, 1, 0x03, 0x01]) + beacon.address + bytes([len(beacon.data)]) \
                + beacon.data + struct.pack("<b", rssi)
        else:
            # Legacy ADV_NONCONN_IND in extended form is event type 0x0010; non-legacy
            # non-connectable non-scannable undirected with complete data is 0x0000 (§7.7.65.13).
            event_type = 0x0000 if beacon.extended_pdu else 0x0010
            secondary_phy = 0x01 if beacon.extended_pdu else 0x00
            sid = 0x00 if beacon.extended_pdu else 0xFF
            params = bytes([SUB_EXT_ADV_REPORT, 1]) + struct.pack("<HB", event_type, 0x01) + beacon.address \
                + struct.pack("<BBBbbHB", 0x01, secondary_phy, sid, 0x7F, rssi, 0, 0) + bytes(6) \
                + bytes([len(beacon.data)]) + beacon.data
        self.send_event(fd, EVT_LE_META, params)

    def advertise(self, now):
        if self.link is not None and self.link_fd is not None and self.link.scan_mode:
            for beacon in self.link.beacons:
                if now >= beacon.next_due:
                    beacon.next_due = now + beacon.interval
                    self.report(beacon, beacon.rssi_at(0), fd=self.link_fd, scan_mode=self.link.scan_mode)
        if self.link is not None and self.fd is not None and self.scan_mode:
            for key, address, data, interval in self.link.adverts():
                if now >= self.link_due.get(key, 0):
                    self.link_due[key] = now + interval
                    self.report(LinkBeacon("link-" + key, address, data, interval), self.scenario.get("link_rssi", -55))
        t = self.scenario_time()
        if t is None or self.fd is None or not self.scan_mode:
            return
        for beacon in self.beacons:
            if not beacon.active(t) or now < beacon.next_due:
                continue
            beacon.next_due = now + beacon.interval
            beacon.address = beacon.address_at(t)
            if self.filter_duplicates:
                if beacon.name in self.reported:
                    continue
                self.reported.add(beacon.name)
            self.report(beacon, beacon.rssi_at(t))

    def run(self):
        self.appear()
        started = time.monotonic()
        logged_rssi = {}
        signal.signal(signal.SIGUSR1, lambda *_: setattr(self, "clock_requested", True))
        while True:
            if self.clock_requested:
                self.start_clock("SIGUSR1")
            now = time.monotonic()
            t = self.scenario_time()
            if t is None and now - started > self.startup_timeout:
                self.log(event="no-scan", waited=self.startup_timeout)
                break
            if t is not None and t >= self.end:
                break
            if t is not None:
                for at, gone_for, new_index in self.vanish:
                    if self.fd is not None and self.returns_at is None and at <= t < at + gone_for:
                        self.disappear(new_index)
                        self.returns_at = self.t0 + at + gone_for
                if self.fd is None and self.returns_at is not None and now >= self.returns_at:
                    self.returns_at = None
                    self.vanish = [v for v in self.vanish if v[0] + v[1] > t]
                    self.reappear()
                for beacon in self.beacons:
                    state = (beacon.active(t), beacon.rssi_at(t) if beacon.active(t) else None)
                    if logged_rssi.get(beacon.name) != state:
                        logged_rssi[beacon.name] = state
                        self.log(event="beacon", name=beacon.name, active=state[0], rssi=state[1])
            self.advertise(now)
            fds = [fd for fd in (self.fd, self.placeholder, self.link_fd) if fd is not None]
            readable, _, _ = select.select(fds, [], [], 0.02)
            for fd in readable:
                self.read_packets(fd)
        self.log(event="done", events_sent=self.events_sent)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", help="scenario JSON file")
    parser.add_argument("--log", required=True, help="JSON-lines log of commands and state changes")
    args = parser.parse_args()
    with open(args.scenario) as f:
        scenario = json.load(f)
    with open(args.log, "a") as log:
        Controller(scenario, log).run()


if __name__ == "__main__":
    sys.exit(main())
