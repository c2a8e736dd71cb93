import AgentCore
import BeaconCore
import BeaconWire
import CLI
import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import Platform
@testable import Runtime
@testable import Simulation

/// The pieces of `run` that need no broker: logging, the simulator's bytes, the event queue.
@Suite struct RunSupportTests {
    @Test func logLinesCarryLevelMessageAndKeyValueMetadata() {
        let lines = LogLines()
        let logger = Logger(level: .info, sink: lines.append)
        logger.info("connected to broker", ["broker": "mqtt://h:1883", "reason": "not authorised here"])
        logger.debug("per packet detail")
        #expect(lines.all == ["info: connected to broker broker=mqtt://h:1883 reason=\"not authorised here\"\n"])
    }

    @Test func underSystemdLinesStartWithTheSyslogPriority() {
        let lines = LogLines()
        let logger = Logger(level: .debug, journald: true, sink: lines.append)
        logger.error("broken")
        logger.warning("careful")
        logger.info("fine")
        logger.debug("detail")
        // sd-daemon(3): <3> SD_ERR, <4> SD_WARNING, <6> SD_INFO, <7> SD_DEBUG.
        #expect(lines.all == ["<3>broken\n", "<4>careful\n", "<6>fine\n", "<7>detail\n"])
    }

    @Test func journaldPrefixesOnlyWhenStderrIsTheJournalStream() {
        var info = stat()
        #expect(fstat(2, &info) == 0)
        let ours = "\(info.st_dev):\(info.st_ino)"
        #expect(Logger.standardError(level: .info, environment: ["JOURNAL_STREAM": ours]).journald)
        #expect(!Logger.standardError(level: .info, environment: ["JOURNAL_STREAM": "1:2"]).journald)
        #expect(!Logger.standardError(level: .info, environment: [:]).journald)
    }

    @Test func simulatedAdvertisementsAreLEAdvertisingReportsWithAnIBeacon() throws {
        let bytes = SimulatedSource.advertisingReport(
            address: [0xC0, 0xFF, 0xEE, 0x00, 0x00, 0x07], major: 1, minor: 0x0207, rssi: -70)
        #expect(Array(bytes.prefix(4)) == [0x04, 0x3E, UInt8(bytes.count - 3), 0x02])
        let summary = try HCIPacketDecoder.decode(bytes)
        let report = try #require(summary.reports.first)
        #expect(summary.reports.count == 1)
        #expect(report.rssi == -70)
        #expect("\(report.address)" == "c0:ff:ee:00:00:07")
        let beacon = try #require(BeaconDecoder.firstIdentifiedBeacon(inAD: report.data))
        #expect(beacon.identity == .uuid(SimulatedSource.uuid, major: 1, minor: 0x0207))
        #expect(beacon.measuredPowerAt1m == -59)
    }

    @Test func theSimulationIsSeededAndWalksBeaconsInAndOut() throws {
        let source = SimulatedSource(beacons: 3, seed: 42)
        let packets = LockedPackets()
        let thread = Thread { try? source.run { for p in $0.carriedPackets { packets.append(p) } } }
        thread.start()
        _ = waitUntil(timeout: 5) { packets.count >= 20 }
        source.stop()
        let minors = Set(
            packets.all.compactMap { packet -> UInt16? in
                guard let report = try? HCIPacketDecoder.decode(packet.bytes).reports.first,
                    let beacon = BeaconDecoder.firstIdentifiedBeacon(inAD: report.data)
                else { return nil }
                return beacon.identity?.minor
            })
        // Every third beacon starts out of range.
        #expect(minors == [1, 2])
    }

    @Test func controlEventsOvertakeQueuedPacketsAndAFullPacketLaneWaits() {
        let queue = AgentEventQueue(packetCapacity: 2)
        let packet = CapturedPacket(timestamp: Timestamp(microseconds: 0), bytes: [0x04])
        #expect(queue.postFromSource(.source(.packet(packet))))
        #expect(queue.postFromSource(.source(.packet(packet))))
        queue.post(.signal(.reload))
        if case .signal(let s) = queue.take(includeSource: true, until: MonotonicClock.now()) {
            #expect(s == .reload)
        } else {
            Issue.record("control event not first")
        }
        #expect(queue.take(includeSource: false, until: MonotonicClock.now() + .milliseconds(50)) == nil)
        // After a control event, a waiting source event goes before the next control event (the
        // reload above was one): a stream of acknowledgements cannot hold a packet back.
        queue.post(.signal(.reload))
        queue.post(.signal(.reload))
        let order = (0..<4).map { _ -> String in
            switch queue.take(includeSource: true, until: MonotonicClock.now()) {
            case .signal?: "control"
            case .source?: "source"
            default: "other"
            }
        }
        #expect(order == ["source", "control", "source", "control"])
        #expect(queue.postFromSource(.source(.packet(packet))))
        #expect(queue.postFromSource(.source(.packet(packet))))
        let third = AtomicFlag()
        Thread { if queue.postFromSource(.source(.end)) { third.set() } }.start()
        #expect(!waitUntil(timeout: 0.2) { third.isSet })
        _ = queue.take(includeSource: true, until: MonotonicClock.now())
        #expect(waitUntil(timeout: 5) { third.isSet })
    }

    /// At `--speed max` the source refills the lane before the pipeline empties it; what the
    /// pipeline took must be released anyway (it held every packet of a flood before).
    @Test func aSourceLaneThatNeverRunsEmptyStaysBounded() {
        let queue = AgentEventQueue(packetCapacity: 1024)
        let batch = Array(repeating: CapturedPacket(timestamp: Timestamp(microseconds: 0), bytes: [0x04]), count: 256)
        #expect(queue.postFromSource(.source(.packets(batch))))
        for _ in 0..<10_000 {
            #expect(queue.postFromSource(.source(.packets(batch))))
            #expect(queue.take(includeSource: true, until: MonotonicClock.now()) != nil)
        }
        #expect(queue.storedSourceEvents <= 2 * 64 + 2)
    }
}
