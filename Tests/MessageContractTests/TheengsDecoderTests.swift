import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import TestFixtures
import Testing

/// Theengs Gateway's messages, made by the real Theengs decoder (PyPI `TheengsDecoder`, installed
/// by `make test-foreign` into .build/theengs-venv) from the advertisements of the recorded captures
/// in Tests/Fixtures/captures, read by the locator's foreign source: every beacon our own decoder
/// finds in a capture is a reading, with the advertisement's RSSI. Skipped without the venv.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: theengsPython),
        "needs the Theengs decoder in .build/theengs-venv: make test-foreign"))
struct TheengsDecoderTests {
    static let repo = theengsRepo
    static let python = theengsPython

    static let captures = [
        "wangdalian-btsnooper_ext-adv_btsnoop_hci.log", "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log",
        "goodystone-estimote-eddystone_hcidump-raw.txt",
    ]

    /// The capture's advertising reports (complete data only, as a scanner hands them on).
    static func reports(_ capture: String) throws -> [AdvertisingReport] {
        let bytes = Array(try Data(contentsOf: repo.appendingPathComponent("Tests/Fixtures/captures/\(capture)")))
        let (packets, error) = CaptureReader.readAll(bytes)
        #expect(error == nil)
        var reports: [AdvertisingReport] = []
        for p in packets { _ = try? HCIPacketDecoder.decodeReports(p.bytes, into: &reports) }
        return reports.filter { $0.dataStatus == 0 }
    }

    /// One advertisement as Theengs Gateway hands it to the decoder (scripts/theengs_messages.py).
    static func theengsInput(_ r: AdvertisingReport) -> String? {
        var manufacturer: String?
        var services: [String] = []
        for s in ADStructure.parse(r.data).structures {
            if s.type == ADStructure.manufacturerSpecificData, manufacturer == nil { manufacturer = Hex.string(s.data) }
            if s.type == ADStructure.serviceData16, s.data.count >= 2 {
                let uuid = Hex.string([s.data[1], s.data[0]])
                services.append(#""\#(uuid)":"\#(Hex.string(s.data.dropFirst(2)))""#)
            }
        }
        guard manufacturer != nil || !services.isEmpty else { return nil }
        var fields = [#""id":"\#(r.address.description.uppercased())""#, #""rssi":\#(r.rssi)"#]
        if let manufacturer { fields.append(#""manufacturerdata":"\#(manufacturer)""#) }
        if !services.isEmpty { fields.append(#""servicedata":{\#(services.joined(separator: ","))}"#) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func theengs(_ input: [String]) throws -> [(topic: String, payload: [UInt8])] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [repo.appendingPathComponent("scripts/theengs_messages.py").path]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input.joined(separator: "\n").utf8))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            let space = line.firstIndex(of: " ")!
            return (String(line[..<space]), Array(line[line.index(after: space)...].utf8))
        }
    }

    @Test(arguments: captures) func everyBeaconOurDecoderFindsIsAReadingOfTheTheengsMessage(_ capture: String) throws {
        let reports = try Self.reports(capture).filter { Self.theengsInput($0) != nil }
        let messages = try Self.theengs(reports.compactMap(Self.theengsInput))
        // What the decoder calls a random address (Apple Continuity, Microsoft CDP) is not published.
        #expect(!messages.isEmpty)
        var reader = ForeignSourceReader(
            sources: [
                ForeignSource(
                    format: .openmqttgateway, nodes: ["TheengsGateway": .init(gateway: "theengs", room: "hall")])
            ])
        var read: [BeaconIdentity: Int] = [:]
        var rssi: [BeaconIdentity: Set<Int>] = [:]
        for m in messages {
            guard case .reading(let r, nil)? = reader.read(topic: m.topic, payload: m.payload, at: Fixtures.t0) else {
                continue
            }
            #expect(r.gateway == "theengs" && r.room == "hall" && r.accuracy > 0)
            read[r.beacon, default: 0] += 1
            rssi[r.beacon, default: []].insert(Int(r.filteredRSSI ?? 0))
        }
        var expected: [BeaconIdentity: Int] = [:]
        var expectedRSSI: [BeaconIdentity: Set<Int>] = [:]
        for r in reports {
            // iBeacon and Eddystone-UID: the identities Theengs Gateway's messages carry (no AltBeacon model).
            for b in BeaconDecoder.beacons(inAD: r.data) {
                if case .altBeacon = b { continue }
                guard let id = b.identity else { continue }
                expected[id, default: 0] += 1
                expectedRSSI[id, default: []].insert(Int(r.rssi))
            }
        }
        #expect(!expected.isEmpty, "the capture has beacons")
        #expect(read == expected)
        #expect(rssi == expectedRSSI)
        #expect(reader.counters.malformed == 0)
    }
}

private let theengsRepo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
private let theengsPython = theengsRepo.appendingPathComponent(".build/theengs-venv/bin/python").path
