import BeaconWire
import Testing
import Vocabulary

/// The streaming reader (bounded buffer, fed chunk by chunk) must read exactly what the whole-file
/// reader reads, whatever the chunk boundaries.
@Suite struct CaptureReaderStreamingTests {
    /// Reads `bytes` as a stream fed `chunk` bytes at a time after a 4,096-byte (or whole) prefix.
    static func stream(
        _ bytes: [UInt8], chunk: Int
    ) -> (packets: [CapturedPacket], error: CaptureError?, maxBuffered: Int) {
        var packets: [CapturedPacket] = []
        var at = min(4096, bytes.count)
        var maxBuffered = at
        do throws(CaptureError) {
            var reader = try CaptureReader(streaming: Array(bytes[0..<at]), isWholeFile: at == bytes.count)
            while true {
                if let packet = try reader.next() {
                    packets.append(packet)
                    continue
                }
                guard reader.needsInput else { break }
                if at == bytes.count {
                    reader.endOfInput()
                    continue
                }
                let end = min(at + chunk, bytes.count)
                bytes[at..<end].withUnsafeBytes { reader.feed($0) }
                maxBuffered = max(maxBuffered, end - at)
                at = end
            }
            return (packets, nil, maxBuffered)
        } catch {
            return (packets, error, maxBuffered)
        }
    }

    @Test(arguments: CaptureFixtures.all.map(\.capture))
    func everyRealCaptureStreamsToTheSamePackets(name: String) throws {
        let bytes = try CaptureFixtures.bytes(name)
        let whole = try CaptureFixtures.packets(name)
        #expect(!whole.isEmpty)
        for chunk in [1, 3, 24, 100, 1000, 65536] {
            let streamed = Self.stream(bytes, chunk: chunk)
            #expect(streamed.error == nil, "chunk \(chunk)")
            #expect(streamed.packets == whole, "chunk \(chunk): \(streamed.packets.count) of \(whole.count)")
        }
    }

    @Test(arguments: CaptureFixtures.all.map(\.capture))
    func aCutCaptureStreamsToTheSamePacketsAndTheSameError(name: String) throws {
        let bytes = try CaptureFixtures.bytes(name)
        for cut in [bytes.count - 1, bytes.count * 2 / 3, 4097] where cut < bytes.count {
            let prefix = Array(bytes[0..<cut])
            let whole = CaptureReader.readAll(prefix)
            let streamed = Self.stream(prefix, chunk: 77)
            #expect(streamed.packets == whole.packets, "cut at \(cut)")
            #expect(streamed.error == whole.error, "cut at \(cut)")
        }
    }

    @Test func aStreamedRecordComesOutOnlyOnceWholeAndTheBufferStaysSmall() throws {
        var file = BtsnoopWriter.fileHeader()
        var expected: [CapturedPacket] = []
        for i in 0..<2000 {
            let packet = CapturedPacket(
                timestamp: .seconds(1_700_000_000) + .milliseconds(Int64(i)),
                bytes: [0x04, 0x0E, 0x01, UInt8(i & 0xFF)])
            expected.append(packet)
            file += BtsnoopWriter.record(packet)
        }
        var reader = try CaptureReader(streaming: Array(file[0..<16]), isWholeFile: false)
        #expect(try reader.next() == nil)
        #expect(reader.needsInput)
        // Half a record: still nothing.
        file[16..<30].withUnsafeBytes { reader.feed($0) }
        #expect(try reader.next() == nil)
        #expect(reader.needsInput)
        file[30..<44].withUnsafeBytes { reader.feed($0) }
        #expect(try reader.next() == expected[0])
        let rest = Self.stream(file, chunk: 512)
        #expect(rest.packets == expected)
        #expect(rest.maxBuffered <= 4096)
    }
}
