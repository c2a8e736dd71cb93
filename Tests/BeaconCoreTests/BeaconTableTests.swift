import BeaconWire
import Settings
import TestFixtures
import Testing
import Vocabulary

@testable import BeaconCore

@Suite struct BeaconTableTests {
    static func slot(_ id: BeaconIdentity) -> BeaconSlot {
        BeaconSlot(
            identity: id, kind: .iBeacon, address: BluetoothAddress(rawValue: 0), rssi: -60, frameMeasuredPower: nil,
            firstSeen: Fixtures.t0, lastSeen: Fixtures.t0, matchList: -1, override: -1, exitTimeout: .seconds(10),
            attributesDue: Fixtures.t0, kalman: KalmanFilter(processNoise: 0.008, measurementNoise: 4),
            measuredPower: -59)
    }

    @Test func indexAgreesWithADictionaryUnderRandomInsertsAndRemoves() {
        var index = IdentityIndex()
        var reference: [BeaconIdentity: Int32] = [:]
        var x: UInt64 = 12345
        for step in 0..<20_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Few distinct identities, so inserts and removes keep colliding.
            let id = Fixtures.beacon(UInt16(x >> 54), major: UInt16((x >> 40) & 3))
            if reference[id] != nil, x & 1 == 0 {
                index.remove(id)
                reference[id] = nil
            } else if reference[id] == nil {
                index.insert(id, slot: Int32(step))
                reference[id] = Int32(step)
            }
            #expect(index.find(id) == reference[id])
        }
        #expect(index.count == reference.count)
        for (id, slot) in reference { #expect(index.find(id) == slot) }
    }

    @Test func leastRecentlySeenIsTheTailAndTouchMovesToHead() {
        var table = BeaconTable()
        let a = table.insert(Self.slot(Fixtures.beacon(1)))
        let b = table.insert(Self.slot(Fixtures.beacon(2)))
        let c = table.insert(Self.slot(Fixtures.beacon(3)))
        #expect(table.recencyOrder == [c, b, a])
        table.touch(a)
        #expect(table.recencyOrder == [a, c, b])
        #expect(table.tail == b)
        table.remove(b)
        #expect(table.recencyOrder == [a, c])
        #expect(table.find(Fixtures.beacon(2)) == nil)
        // The freed slot is reused with a new generation, so old deadlines for it are ignored.
        let d = table.insert(Self.slot(Fixtures.beacon(4)))
        #expect(d == b)
        #expect(table[d].generation != 0)
    }

    @Test func sampleRingKeepsTheLatest32InOrder() {
        var table = BeaconTable()
        let i = table.insert(Self.slot(Fixtures.beacon(1)))
        for k in 0..<40 { table.appendSample(i, rssi: Int8(-k), at: Fixtures.at(Double(k))) }
        #expect(table.withSamples(i, after: Fixtures.at(-1)) { Array($0) } == (8..<40).map { Int8(-$0) })
        #expect(table.withSamples(i, after: Fixtures.at(36)) { Array($0) } == [-37, -38, -39])
        #expect(table.withSamples(i, after: Fixtures.at(40)) { Array($0) } == [])
        #expect(table.lastSample(i) == -39)
    }

    /// The window found by bisection and copied in runs is the plain filter of the ring's samples
    /// (the latest 32, oldest first) by time, for rings of every fill and position, windows
    /// before, inside and after them, and repeated times; three slots so the runs' offsets vary.
    @Test func sampleWindowIsTheSamplesAfterItsStart() {
        var table = BeaconTable()
        let slots = (1...3).map { table.insert(Self.slot(Fixtures.beacon(UInt16($0)))) }
        var kept: [[(time: Int64, rssi: Int8)]] = [[], [], []]
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        var time: Int64 = 0
        var mismatches = 0
        var nonEmpty = 0
        for step in 0..<6_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let s = Int(x % 3)
            time += Int64(x >> 40 & 3) * 250_000  // often the same time as the last sample
            let rssi = Int8(truncatingIfNeeded: x >> 8)
            table.appendSample(slots[s], rssi: rssi, at: Timestamp(microseconds: time))
            kept[s].append((time, rssi))
            if kept[s].count > BeaconTable.ringCapacity { kept[s].removeFirst() }
            let start = time - Int64(x >> 20 & 0xF) * 400_000 + (step % 5 == 0 ? 10_000_000 : 0)
            let expected = kept[s].filter { $0.time > start }.map(\.rssi)
            let got = table.withSamples(slots[s], after: Timestamp(microseconds: start)) { Array($0) }
            if got != expected { mismatches += 1 }
            if !got.isEmpty && got.count < kept[s].count { nonEmpty += 1 }
        }
        #expect(mismatches == 0)
        #expect(nonEmpty > 1_000)  // windows that cut the ring, not only all or nothing
    }

    @Test func deadlineHeapStaysBoundedUnderAFloodOfPerBeaconIdentities() {
        var c = Configuration()
        c.monitoring.maxTracked = 100
        var m = BeaconMonitor(settings: MonitorSettings(c), start: Fixtures.t0)
        var out: [MonitoringEvent] = []
        var largest = 0
        for n in 0..<3_000 {
            let id = BeaconIdentity.uuid(Fixtures.uuidB, major: UInt16(n >> 16), minor: UInt16(n & 0xFFFF))
            m.observe(Fixtures.sighting(id, at: Double(n) / 10_000), into: &out)
            largest = max(largest, m.heap.count)
            out.removeAll(keepingCapacity: true)
        }
        #expect(largest <= 2 * 100 + 64 + 1)
        #expect(m.counters.evicted == 2_900)
        #expect(m.counters.exitEvents == 2_900)  // every evicted beacon was inside
    }
}
