import BeaconWire
import Testing
import Vocabulary

/// `PacketBatch` keeps every packet's bytes, time and direction in one buffer and gives back
/// exactly what went in, in order; `CaptureReader.next(into:)` appends what `next()` returns.
@Suite struct PacketBatchTests {
    static let packets: [CapturedPacket] = [
        CapturedPacket(timestamp: Timestamp(microseconds: 1_700_000_000_000_000), bytes: HCIVectors.realIBeacon),
        CapturedPacket(timestamp: Timestamp(microseconds: -5), bytes: HCIVectors.resetCommand, incoming: false),
        CapturedPacket(timestamp: Timestamp(microseconds: 0), bytes: []),
        CapturedPacket(timestamp: Timestamp(microseconds: Int64.max), bytes: (0..<300).map { UInt8($0 & 0xFF) }),
        CapturedPacket(timestamp: Timestamp(microseconds: 42), bytes: HCIVectors.aclData, incoming: false),
    ]

    @Test func packetsComeBackAsTheyWentIn() {
        let batch = PacketBatch(Self.packets)
        #expect(batch.count == Self.packets.count)
        #expect(batch.packets == Self.packets)
        #expect(batch.byteCount == Self.packets.reduce(0) { $0 + 13 + $1.bytes.count })
        #expect(batch == PacketBatch(Self.packets))
        #expect(batch != PacketBatch(Self.packets.reversed()))
        #expect(PacketBatch().isEmpty && PacketBatch().packets.isEmpty)
    }

    @Test func anIndicatorAndABodyMakeOnePacket() {
        var batch = PacketBatch()
        let body = Array(HCIVectors.realIBeacon.dropFirst())
        body.withUnsafeBytes {
            batch.append(timestamp: Timestamp(microseconds: 7), incoming: true, indicator: 0x04, body: $0)
        }
        [UInt8]().withUnsafeBytes {
            batch.append(timestamp: Timestamp(microseconds: 8), incoming: false, indicator: 0x01, body: $0)
        }
        #expect(
            batch.packets == [
                CapturedPacket(timestamp: Timestamp(microseconds: 7), bytes: HCIVectors.realIBeacon),
                CapturedPacket(timestamp: Timestamp(microseconds: 8), bytes: [0x01], incoming: false),
            ])
    }

    @Test func aCursorStopsWhereItsReaderStopsAndResumesThere() {
        let batch = PacketBatch(Self.packets)
        func read(from offset: Int, at most: Int) -> (packets: [CapturedPacket], rest: Int?) {
            batch.withPackets(from: offset) { cursor in
                var out: [CapturedPacket] = []
                while out.count < most, let packet = cursor.next() {
                    out.append(
                        CapturedPacket(
                            timestamp: packet.timestamp, bytes: Array(packet.bytes), incoming: packet.incoming))
                }
                return (out, cursor.isAtEnd ? nil : cursor.offset)
            }
        }
        let first = read(from: 0, at: 2)
        #expect(first.packets == Array(Self.packets.prefix(2)))
        let offset = try! #require(first.rest)
        #expect(offset == 2 * 13 + Self.packets[0].bytes.count + Self.packets[1].bytes.count)
        let second = read(from: offset, at: 100)
        #expect(second.rest == nil)
        #expect(second.packets == Array(Self.packets.dropFirst(2)))
        #expect(read(from: 0, at: 0).rest == 0)
        #expect(PacketBatch().withPackets(from: 0) { $0.isAtEnd && $0.next() == nil })
    }

    @Test func moveLastTakesTheNewestPacketAndLeavesTheRestUsable() {
        var batch = PacketBatch(Self.packets)
        var held = PacketBatch()
        batch.moveLast(to: &held)
        #expect(held.packets == [Self.packets[4]])
        #expect(batch.packets == Array(Self.packets.prefix(4)))
        batch.moveLast(to: &held)
        #expect(held.packets == [Self.packets[4], Self.packets[3]])
        #expect(batch.packets == Array(Self.packets.prefix(3)))
        batch.append(Self.packets[0])
        batch.moveLast(to: &held)
        #expect(held.packets.last == Self.packets[0])
        #expect(batch.packets == Array(Self.packets.prefix(3)))
        var one = PacketBatch([Self.packets[1]])
        var other = PacketBatch()
        one.moveLast(to: &other)
        #expect(one.isEmpty && one.byteCount == 0)
        #expect(other.packets == [Self.packets[1]])
        one.moveLast(to: &other)
        #expect(other.count == 1)
    }

    /// A batch handed over shares its buffer: writing to the source's batch afterwards must copy it.
    @Test func aHandedOverBatchKeepsItsPacketsWhileTheSourceAppendsAndMoves() {
        var batch = PacketBatch(reservingBytes: 16)
        batch.append(Self.packets[0])
        let handedOver = batch
        for packet in Self.packets.dropFirst() { batch.append(packet) }  // grows past 16 bytes
        #expect(handedOver.packets == [Self.packets[0]])
        #expect(batch.packets == Self.packets)
        let before = batch
        var held = PacketBatch()
        batch.moveLast(to: &held)
        #expect(before.packets == Self.packets)
        #expect(batch.packets == Array(Self.packets.dropLast()))
        var roomy = PacketBatch(reservingBytes: 4096)
        roomy.append(Self.packets[1])
        let shared = roomy
        roomy.append(Self.packets[2])  // fits, but the buffer is shared
        #expect(shared.packets == [Self.packets[1]])
        #expect(roomy.packets == [Self.packets[1], Self.packets[2]])
    }

    static var captures: [[UInt8]] {
        get throws {
            typealias C = CaptureReaderTests
            let micros = C.btsnoopMicros
            let h1 =
                C.btsnoopHeader(datalink: 1001)
                + C.btsnoopRecord(Array(HCIVectors.realIBeacon.dropFirst()), flags: 3, micros: micros)
                + C.btsnoopRecord(Array(HCIVectors.resetCommand.dropFirst()), flags: 2, micros: micros + 1)
                + C.btsnoopRecord(Array(HCIVectors.aclData.dropFirst()), flags: 0, micros: micros + 2)
            let monitor =
                C.btsnoopHeader(datalink: 2001)
                + C.btsnoopRecord([UInt8](repeating: 0, count: 16), flags: 0, micros: micros)
                + C.btsnoopRecord(Array(HCIVectors.realIBeacon.dropFirst()), flags: 3, micros: micros)
            let pcapHeader: [UInt8] =
                [0xD4, 0xC3, 0xB2, 0xA1] + C.le16(2) + C.le16(4) + C.le32(0) + C.le32(0) + C.le32(65535) + C.le32(201)
            let frame = C.be32(1) + HCIVectors.realIBeacon
            let pcap =
                pcapHeader + C.le32(1_700_000_000) + C.le32(250_000) + C.le32(UInt32(frame.count))
                + C.le32(UInt32(frame.count)) + frame
            return try [h1, monitor, pcap] + CaptureFixtures.all.map { try CaptureFixtures.bytes($0.capture) }
        }
    }

    @Test func aCaptureReadIntoABatchIsTheCaptureReadPacketByPacket() throws {
        for (n, file) in try Self.captures.enumerated() {
            let (expected, error) = CaptureReader.readAll(file)
            #expect(error == nil)
            #expect(!expected.isEmpty)
            var reader = try CaptureReader(file)
            var batch = PacketBatch()
            var stamps: [Timestamp] = []
            while let stamp = try reader.next(into: &batch) { stamps.append(stamp) }
            #expect(batch.packets == expected, "capture \(n)")
            #expect(stamps == expected.map(\.timestamp), "capture \(n)")
        }
    }
}
