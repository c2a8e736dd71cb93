import BeaconWire
import Testing
import Vocabulary

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

    /// `writeFixed` rounds without libm's `round`: it must print what rounding half away from
    /// zero (`rounded()`, the straightforward form) prints, at and around every half-way point.
    @Test func fixedPointRoundsAsRoundedDoes() {
        func reference(_ v: Double, _ decimals: Int) -> String? {
            var scale: UInt64 = 1
            for _ in 0..<decimals { scale *= 10 }
            let scaled = (v * Double(scale)).rounded()
            guard v.isFinite, abs(scaled) < 9.0e15 else { return nil }
            let n = Int64(scaled)
            let whole = String(n.magnitude / scale)
            var fraction = decimals == 0 ? "" : String(n.magnitude % scale)
            fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return (n < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
        }
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, -2.5, 0.049999999999999996, 0.05, -0.05, 8.999999999999999e15,
            9e15, -9e15, 4.5e15 + 0.5, 1e300, -1e-300, .nan, .infinity, -.infinity, .ulpOfOne, 0.49999999999999994,
        ]
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let halfway = (Double(Int64(bitPattern: x) >> 40) + 0.5) / [1.0, 10, 100, 1000][Int(x & 3)]
            values += [halfway, halfway.nextUp, halfway.nextDown, Double(bitPattern: x >> 2) * (x & 1 == 0 ? 1 : -1)]
        }
        var mismatches: [String] = []
        for v in values {
            for decimals in 0...3 {
                var out: [UInt8] = []
                let written = ASCIIText.appendFixed(v, decimals: decimals, to: &out)
                let text = written ? String(decoding: out, as: UTF8.self) : nil
                if text != reference(v, decimals) { mismatches.append("\(v) \(decimals): \(text ?? "nil")") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(values.count > 80_000)
    }

    /// `writeDigits`' one- and two-digit shortcut against the plain decimal text, padded.
    @Test func digitsMatchTheDecimalTextAtEveryWidth() {
        var values: [UInt64] = Array(0...1_100) + [9_999, 10_000, 123_456_789, .max]
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values.append(x >> (x & 63))
        }
        var mismatches = 0
        for v in values {
            for width in -1...5 {
                let plain = String(v)
                let expected = String(repeating: "0", count: max(0, width - plain.count)) + plain
                if Self.text({ ASCIIText.appendDigits(v, minimumWidth: width, to: &$0) }) != "x" + expected {
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
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
