import BeaconWire
import Testing

/// The JSON reader on cut, mutated and random input: it never traps, and when it refuses a text the
/// error's offset lies within it.
@Suite struct JSONRobustnessTests {
    static let documents = [
        #"{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"k\u00e9ys \ud83d\ude00","#
            + #""gateway":"gw1","floor":null,"rssi":-59,"accuracy":1.01e0,"ok":true,"list":[1,[2,{"x":"]"}],{}]}"#,
        #"[{"a":"\"\\\/\b\f\n\r\t"},-0.5E+3,false,null,"é€😀"]"#,
        #"{"uptime":3725,"reports_per_s":2.5,"beacons_tracked":4,"degraded":"no adapter"}"#,
    ]

    /// Reads `bytes` to the end; the error, if any, after checking its offset.
    static func read(_ bytes: [UInt8]) -> JSONError? {
        var reader = JSONReader(bytes)
        var tokens = 0
        do {
            while let token = try reader.next() {
                tokens += 1
                // Decoding what the reader accepted must not trap either.
                switch token {
                case .key(let t), .string(let t): _ = reader.string(t)
                case .number(let t): #expect(reader.number(t) != nil)
                default: break
                }
            }
            #expect(tokens > 0)
            return nil
        } catch {
            #expect((0...bytes.count).contains(error.offset), "\(error) in \(bytes.count) bytes")
            _ = try? JSONObject(bytes)
            return error
        }
    }

    @Test func everyProperPrefixOfAValidDocumentIsRefused() {
        for document in Self.documents {
            let bytes = Array(document.utf8)
            #expect(Self.read(bytes) == nil)
            for length in 0..<bytes.count {
                let error = Self.read(Array(bytes[..<length]))
                #expect(error != nil, "prefix \(length)")
                #expect((error?.offset ?? -1) <= length)
            }
        }
    }

    @Test func mutatedDocumentsNeverTrap() {
        var rng = RobustnessTests.SplitMix64(state: 12)
        for document in Self.documents {
            let bytes = Array(document.utf8)
            for _ in 0..<3_000 { _ = Self.read(RobustnessTests.mutate(bytes, &rng)) }
        }
    }

    @Test func randomBytesNeverTrap() {
        var rng = RobustnessTests.SplitMix64(state: 99)
        let alphabet =
            Array(#"{}[]:,"\ u0123456789abcdefE.+-truefalsenull"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &rng)
            let random = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let structured = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }
            _ = Self.read(random)
            _ = Self.read(structured)
        }
    }
}
