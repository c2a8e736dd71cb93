import BeaconWire
import Foundation
import Testing

/// Each real capture decoded with BeaconWire must agree with section A of its sidecar, which an
/// independent Python analyser produced (and Wireshark's dissectors cross-checked).
@Suite struct CaptureExpectationTests {
    static let captureNames = CaptureFixtures.all.map(\.capture)

    static func load(_ capture: String) throws -> (ExpectedFacts, CaptureTally) {
        let expectedName = CaptureFixtures.all.first { $0.capture == capture }!.expected
        let expected = ExpectedFacts(text: try CaptureFixtures.text(expectedName))
        return (expected, CaptureTally(try CaptureFixtures.packets(capture)))
    }

    @Test(arguments: captureNames)
    func containerIsDetected(capture: String) throws {
        let (expected, _) = try Self.load(capture)
        let format = try CaptureReader(try CaptureFixtures.bytes(capture)).format
        switch expected.container {
        case "btsnoop": #expect(format == .btsnoop(datalink: 1002))
        case "pcapng": #expect(format == .pcapng)
        case "hcidump-text": #expect(format == .hcidumpText)
        default: Issue.record("unexpected container \(expected.container)")
        }
    }

    @Test(arguments: captureNames)
    func eventAndSubeventCountsMatch(capture: String) throws {
        let (expected, tally) = try Self.load(capture)
        #expect(expected.hciEvents > 0)
        #expect(tally.hciEvents == expected.hciEvents)
        #expect(tally.leMetaSubevents == expected.leMetaSubevents)
        #expect(tally.malformed == expected.malformed)
    }

    @Test(arguments: captureNames)
    func reportCountsAddressesAndRSSIMatch(capture: String) throws {
        let (expected, tally) = try Self.load(capture)
        #expect(tally.reports.count == expected.advReports)
        #expect(tally.reportsByEventType == expected.reportsByEventType)
        #expect(tally.distinctAddresses == expected.distinctAddresses)
        #expect(tally.rssiRange == expected.rssiRange)
        #expect(tally.reportsWithTruncatedAD == expected.reportsWithTruncatedAD)
    }

    @Test(arguments: captureNames)
    func beaconFrameKindsMatch(capture: String) throws {
        let (expected, tally) = try Self.load(capture)
        let kinds = tally.frames.reduce(into: [String: Int]()) { $0[CaptureTally.kindName($1.beacon), default: 0] += 1 }
        #expect(kinds == expected.beaconFramesByKind)
    }

    @Test(arguments: captureNames)
    func iBeaconTuplesMatch(capture: String) throws {
        let (expected, tally) = try Self.load(capture)
        var grouped: [String: [(AdvertisingReport, IBeacon)]] = [:]
        for (report, beacon) in tally.frames {
            guard case .iBeacon(let b) = beacon else { continue }
            grouped["\(b.uuid.uuidString) \(b.major) \(b.minor)", default: []].append((report, b))
        }
        #expect(expected.iBeacons.count == expected.distinctIBeacons)
        #expect(grouped.count == expected.distinctIBeacons)
        for tuple in expected.iBeacons {
            let frames = grouped["\(tuple.uuid) \(tuple.major) \(tuple.minor)"] ?? []
            #expect(frames.count == tuple.frames, "\(tuple.uuid) \(tuple.major) \(tuple.minor)")
            #expect(Set(frames.map { Int($0.1.measuredPower) }).sorted() == tuple.measuredPower)
            let rssi = frames.map { Int($0.0.rssi) }
            #expect([rssi.min() ?? 0, rssi.max() ?? 0] == tuple.rssi)
            #expect(Set(frames.map { $0.0.address.description }).sorted() == tuple.addresses)
            #expect(Set(frames.map { Int($0.0.eventType) }).sorted() == tuple.eventTypes)
        }
    }

    /// Eddystone lines look like `eddystone_uid/<namespace>/<instance> frames=… tx_power=[…] rssi=[…]`,
    /// `eddystone_url/<url> …` and `eddystone_tlm/<address> … tlm_first_last=[(mV, °C, adv, 0.1 s), …]`.
    @Test(arguments: captureNames)
    func eddystoneValuesMatch(capture: String) throws {
        let (expected, tally) = try Self.load(capture)
        var keys: [String: [(AdvertisingReport, Beacon)]] = [:]
        for (report, beacon) in tally.frames {
            switch beacon {
            case .eddystone(.uid(let u)):
                let id = BeaconIdentity.eddystone(u.id)
                keys["eddystone_uid/\(id.eddystoneNamespace)/\(id.eddystoneInstance)", default: []].append(
                    (report, beacon))
            case .eddystone(.url(let u)): keys["eddystone_url/\(u.url)", default: []].append((report, beacon))
            case .eddystone(.tlm): keys["eddystone_tlm/\(report.address)", default: []].append((report, beacon))
            default: continue
            }
        }
        let expectedEddystone = expected.otherBeacons.filter { $0.hasPrefix("eddystone") }
        #expect(keys.count == expectedEddystone.count)
        for line in expectedEddystone {
            let key = String(line.prefix { $0 != " " })
            let attributes = ExpectedFacts.attributes(line)
            let frames = keys[key] ?? []
            #expect(frames.count == Int(attributes["frames"]!), "\(key)")
            let rssi = frames.map { Int($0.0.rssi) }
            #expect([rssi.min() ?? 0, rssi.max() ?? 0] == ExpectedFacts.integers(attributes["rssi"]!), "\(key)")
            let txPowers: [Int] = frames.compactMap {
                switch $0.1 {
                case .eddystone(.uid(let u)): return Int(u.txPowerAt0m)
                case .eddystone(.url(let u)): return Int(u.txPowerAt0m)
                default: return nil
                }
            }
            #expect(Set(txPowers).sorted() == ExpectedFacts.integers(attributes["tx_power"]!), "\(key)")
            if let tlm = attributes["tlm_first_last"] {
                let numbers = ExpectedFacts.numbers(tlm)
                guard case .eddystone(.tlm(let first))? = frames.first?.1,
                    case .eddystone(.tlm(let last))? = frames.last?.1
                else {
                    Issue.record("no TLM frames for \(key)")
                    continue
                }
                let actual = [first, last].flatMap {
                    [
                        Double($0.batteryMillivolts), $0.temperature ?? .nan, Double($0.advertisingCount),
                        Double($0.uptimeDeciseconds),
                    ]
                }
                #expect(actual == numbers, "\(key)")
            }
        }
    }
}
