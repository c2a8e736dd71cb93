import BeaconWire
import Testing

@Suite struct ASCIITextTests {
    static func text(_ write: (inout [UInt8]) -> Void) -> String {
        var out: [UInt8] = Array("x".utf8)  // appends must keep what is already there
        write(&out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func decimalsAndPadding() {
        #expect(Self.text { ASCIIText.appendDecimal(0, to: &$0) } == "x0")
        #expect(Self.text { ASCIIText.appendDecimal(-42, to: &$0) } == "x-42")
        #expect(Self.text { ASCIIText.appendDecimal(.min, to: &$0) } == "x\(Int64.min)")
        #expect(Self.text { ASCIIText.appendDigits(7, minimumWidth: 3, to: &$0) } == "x007")
        #expect(Self.text { ASCIIText.appendDigits(12_345, minimumWidth: 3, to: &$0) } == "x12345")
        #expect(Self.text { ASCIIText.appendDigits(.max, minimumWidth: 1, to: &$0) } == "x\(UInt64.max)")
        #expect(Self.text { ASCIIText.appendHex(0xA5, to: &$0) } == "xa5")
    }

    @Test func fixedPointMatchesTheDocumentedRounding() {
        #expect(Self.text { _ = ASCIIText.appendFixed(1.005, decimals: 2, to: &$0) } == "x1")  // 1.005 is 1.00499…
        #expect(Self.text { _ = ASCIIText.appendFixed(-0.05, decimals: 1, to: &$0) } == "x-0.1")
        #expect(Self.text { _ = ASCIIText.appendFixed(12.3456, decimals: 3, to: &$0) } == "x12.346")
        #expect(Self.text { _ = ASCIIText.appendFixed(0.5, decimals: 0, to: &$0) } == "x1")
        var out: [UInt8] = []
        #expect(!ASCIIText.appendFixed(.nan, decimals: 2, to: &out) && out.isEmpty)
        #expect(!ASCIIText.appendFixed(1e300, decimals: 2, to: &out) && out.isEmpty)
    }

    @Test func uuidAndAddressText() {
        let id = BeaconID128(uuidString: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
        #expect(id.uuidString == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(BeaconID128(uuidString: id.uuidString) == id)
        #expect(BluetoothAddress(rawValue: 0xC0FF_EE00_0A01).description == "c0:ff:ee:00:0a:01")
    }

    /// The minute-caching formatter writes exactly what `rfc3339` does, across minute, day, year
    /// and epoch boundaries, in and out of order.
    @Test func rfc3339FormatterAgreesWithTimestamp() {
        var formatter = RFC3339Formatter()
        var times: [Int64] = [0, -1, -999, -1_000, -60_000_000, 59_999_999, 60_000_000, 951_782_400_000_000]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            times.append(Int64(bitPattern: x >> 8) % 4_000_000_000_000_000)
            times.append(times[times.count - 1] + Int64(x % 90_000_000))  // often the same minute
        }
        var mismatches = 0
        for us in times {
            let t = Timestamp(microseconds: us)
            var out: [UInt8] = []
            formatter.append(t, to: &out)
            if String(decoding: out, as: UTF8.self) != t.rfc3339 { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(Timestamp(microseconds: 951_782_400_123_456).rfc3339 == "2000-02-29T00:00:00.123Z")
        #expect(Timestamp(microseconds: -1).rfc3339 == "1969-12-31T23:59:59.999Z")
    }
}
