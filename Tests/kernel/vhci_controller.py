#!/usr/bin/env python3
"""A scripted LE controller on /dev/vhci, for the kernel tests (stdlib only; runs in the guest).

The kernel's vhci driver turns each open /dev/vhci into an hciN device and relays HCI packets, H4
framed, both ways. This controller answers the commands the 6.1 kernel sends while setting a controller
up (a table of Command Complete return parameters), the legacy and extended scan commands, and, while
scanning is on, sends one advertising report per beacon per advertising interval:

* LE Advertising Report (Core Spec Vol 4, Part E, §7.7.65.2) after LE Set Scan Enable,
* LE Extended Advertising Report (§7.7.65.13) after LE Set Extended Scan Enable.

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


def supported_commands(extended):
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
    return bytes(mask)


def return_parameters(opcode, address, extended):
    """Return parameters after the status octet, or None for a status-only reply."""
    if opcode == 0x1001:  # Read Local Version Information (§7.4.1): 5.2, Linux Foundation
        return struct.pack("<BHBHH", 0x0B, 0, 0x0B, 0x05F1, 0)
    if opcode == 0x1002:  # Read Local Supported Commands (§7.4.2)
        return supported_commands(extended)
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
        self.address = parse_address(spec["address"])
        self.data = ibeacon_ad(spec["uuid"], spec["major"], spec["minor"], spec.get("tx", -59))
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
        self.t0 = None
        self.returns_at = None
        self.buffers = {}

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

    def command_complete(self, fd, opcode, params):
        self.send_event(fd, EVT_COMMAND_COMPLETE, struct.pack("<BH", 1, opcode) + params)

    def handle_command(self, fd, opcode, params):
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

    def report(self, beacon, rssi):
        if self.scan_mode == "legacy":
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
        self.send_event(self.fd, EVT_LE_META, params)

    def advertise(self, now):
        t = self.scenario_time()
        if t is None or self.fd is None or not self.scan_mode:
            return
        for beacon in self.beacons:
            if not beacon.active(t) or now < beacon.next_due:
                continue
            beacon.next_due = now + beacon.interval
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
            fds = [fd for fd in (self.fd, self.placeholder) if fd is not None]
            readable, _, _ = select.select(fds, [], [], 0.02)
            for fd in readable:
                self.read_packets(fd)
        self.log(event="done")


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
