import BeaconWire
import Foundation

/// Locates the real captures copied into Tests/Fixtures/captures (see its PROVENANCE.md).
enum CaptureFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/captures")

    /// Capture file name → its expected-*.txt sidecar.
    static let all: [(capture: String, expected: String)] = [
        ("wangdalian-btsnooper_ext-adv_btsnoop_hci.log", "expected-wangdalian-btsnooper_ext-adv.txt"),
        (
            "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log",
            "expected-csacca-horizon74_legacy-scanrsp-ibeacon.txt"
        ),
        (
            "csacca-horizon74_legacy-scanrsp-ibeacon.pcapng",
            "expected-csacca-horizon74_legacy-scanrsp-ibeacon.pcapng.txt"
        ),
        ("goodystone-estimote-eddystone_hcidump-raw.txt", "expected-goodystone-estimote-eddystone_hcidump-raw.txt"),
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    /// Every packet of a capture; fails the caller if the container cannot be read to its end.
    static func packets(_ name: String) throws -> [CapturedPacket] {
        let (packets, error) = CaptureReader.readAll(try bytes(name))
        if let error { throw error }
        return packets
    }
}

/// Section A of an expected-*.txt sidecar (the independent Python analyser's output), parsed.
struct ExpectedFacts {
    struct IBeaconTuple: Equatable {
        var uuid: String, major: Int, minor: Int, frames: Int, measuredPower: [Int], rssi: [Int], addresses: [String]
        var eventTypes: [Int]
    }

    var container = ""
    var hciEvents = 0
    var leMetaSubevents: [Int: Int] = [:]
    var advReports = 0
    var malformed = 0
    var reportsByEventType: [Int: Int] = [:]
    var distinctAddresses = 0
    var rssiRange: [Int] = []
    var reportsWithTruncatedAD = 0
    var beaconFramesByKind: [String: Int] = [:]
    var distinctIBeacons = 0
    var iBeacons: [IBeaconTuple] = []
    /// Lines after `other_beacons:`, e.g. `eddystone_uid/edd1…/ebb1… frames=2 tx_power=[-21] …`.
    var otherBeacons: [String] = []

    init(text: String) {
        for raw in text.split(separator: "\n") {
            let line = String(raw)
            if line.hasPrefix("# Section B") { break }
            if line.hasPrefix("#") { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let colon = trimmed.firstIndex(of: ":") else { continue }
            let key = String(trimmed[..<colon])
            let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "container": container = value
            case "hci_events": hciEvents = Int(value)!
            case _ where key.hasPrefix("le_meta_sub_0x"):
                leMetaSubevents[Int(key.dropFirst("le_meta_sub_0x".count), radix: 16)!] = Int(value)!
            case "adv_reports":
                let numbers = Self.integers(value)
                advReports = numbers[0]
                malformed = numbers[1]
            case "reports_by_evt_type":
                reportsByEventType = Dictionary(
                    uniqueKeysWithValues: Self.jsonObject(value).map { (Int($0.key)!, $0.value) })
            case "distinct_adv_addresses": distinctAddresses = Int(value)!
            case "rssi_range_all_reports": rssiRange = Self.integers(value)
            case "reports_with_truncated_ad": reportsWithTruncatedAD = Int(value)!
            case "beacon_frames_by_kind": beaconFramesByKind = Self.jsonObject(value)
            case "distinct_ibeacons (uuid/major/minor)": distinctIBeacons = Int(value)!
            default:
                if trimmed.hasPrefix("ibeacon uuid=") {
                    iBeacons.append(Self.iBeacon(trimmed))
                } else if trimmed.hasPrefix("eddystone") || trimmed.hasPrefix("altbeacon") {
                    otherBeacons.append(trimmed)
                }
            }
        }
    }

    /// `key=value` pairs of a beacon line; list values keep their brackets.
    static func attributes(_ line: String) -> [String: String] {
        var out: [String: String] = [:]
        var rest = Substring(line)
        while let eq = rest.firstIndex(of: "=") {
            let keyStart = rest[..<eq].lastIndex(of: " ").map { rest.index(after: $0) } ?? rest.startIndex
            let key = String(rest[keyStart..<eq])
            var end = rest.index(after: eq)
            var depth = 0
            while end < rest.endIndex {
                let c = rest[end]
                if c == "[" || c == "(" { depth += 1 }
                if c == "]" || c == ")" { depth -= 1 }
                if c == " " && depth == 0 { break }
                end = rest.index(after: end)
            }
            out[key] = String(rest[rest.index(after: eq)..<end])
            rest = rest[end...]
        }
        return out
    }

    static func integers(_ text: String) -> [Int] {
        text.split(whereSeparator: { !"-0123456789".contains($0) }).compactMap { Int($0) }
    }

    static func numbers(_ text: String) -> [Double] {
        text.split(whereSeparator: { !"-.0123456789".contains($0) }).compactMap { Double($0) }
    }

    static func jsonObject(_ text: String) -> [String: Int] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Int] ?? [:]
    }

    static func iBeacon(_ line: String) -> IBeaconTuple {
        let a = attributes(line)
        return IBeaconTuple(
            uuid: a["uuid"]!, major: Int(a["major"]!)!, minor: Int(a["minor"]!)!, frames: Int(a["frames"]!)!,
            measuredPower: integers(a["measured_power"]!), rssi: integers(a["rssi"]!),
            addresses: a["addrs"]!.split(separator: ",").map(String.init), eventTypes: integers(a["evt_types"]!))
    }
}

/// The same statistics as the Python analyser, computed with BeaconWire.
struct CaptureTally {
    var hciEvents = 0
    var leMetaSubevents: [Int: Int] = [:]
    var reports: [AdvertisingReport] = []
    var malformed = 0

    init(_ packets: [CapturedPacket]) {
        for packet in packets where packet.bytes.first == 0x04 {
            hciEvents += 1
            do {
                let packetClass = try HCIPacketDecoder.decodeReports(packet.bytes, indicator: .present, into: &reports)
                if packetClass.eventCode == 0x3E, let sub = packetClass.leSubevent {
                    leMetaSubevents[Int(sub), default: 0] += 1
                }
            } catch {
                malformed += 1
            }
        }
    }

    var reportsByEventType: [Int: Int] {
        reports.reduce(into: [:]) { $0[Int($1.eventType), default: 0] += 1 }
    }

    var distinctAddresses: Int { Set(reports.map(\.address)).count }
    var rssiRange: [Int] {
        let values = reports.map { Int($0.rssi) }
        return [values.min()!, values.max()!]
    }

    var reportsWithTruncatedAD: Int {
        reports.filter { ADStructure.parse($0.data).truncatedAt != nil }.count
    }

    /// (report, beacon) for every frame in every report.
    var frames: [(report: AdvertisingReport, beacon: Beacon)] {
        reports.flatMap { r in BeaconDecoder.beacons(inAD: r.data).map { (r, $0) } }
    }

    static func kindName(_ beacon: Beacon) -> String {
        switch beacon {
        case .iBeacon: return "ibeacon"
        case .altBeacon: return "altbeacon"
        case .eddystone(.uid): return "eddystone_uid"
        case .eddystone(.url): return "eddystone_url"
        case .eddystone(.tlm): return "eddystone_tlm"
        case .eddystone(.eid): return "eddystone_eid"
        case .eddystone(.unknown): return "eddystone_other"
        }
    }
}
