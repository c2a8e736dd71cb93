/// `exp`, `log` and `pow` from stdlib `Double` operations only, so the pure module needs neither
/// Foundation nor Glibc. Accuracy is within a few ulps over the range distance estimation uses
/// (ratios 0.1…10, exponents up to 10), far below the noise of an RSSI reading.
enum Numerics {
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    static let ln2 = 0.693147180559945309417232121458
    static let ln10 = 2.302585092994045684017991454684

    /// Natural logarithm: x = m·2^e with m in [√½, √2), then ln m = 2·atanh((m−1)/(m+1)) by its series.
    static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return .infinity }
        var e = Int(x.exponent)
        var m = x.significand  // [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1)  // |s| ≤ 0.1716
        let s2 = s * s
        var term = s
        var sum = 0.0
        var k = 1.0
        // s2 ≤ 0.0295: 14 terms take the remainder below 1e-21.
        for _ in 0..<14 {
            sum += term / k
            term *= s2
            k += 2
        }
        let ed = Double(e)
        return ed * ln2Hi + (2 * sum + ed * ln2Lo)
    }

    /// e^x: x = k·ln2 + r with |r| ≤ ln2/2, e^r by Taylor series, then scaled by 2^k.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        var term = 1.0
        var sum = 1.0
        // |r| ≤ 0.347: 0.347^18/18! < 1e-24.
        for n in 1...18 {
            term *= r / Double(n)
            sum += term
        }
        // Scale in two steps so 2^k never overflows on its own near the limits.
        let k1 = Int(k) / 2
        let k2 = Int(k) - k1
        return sum * Double(sign: .plus, exponent: k1, significand: 1)
            * Double(sign: .plus, exponent: k2, significand: 1)
    }

    /// x^y for x ≥ 0.
    static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return 1 }
        if x == 0 { return y > 0 ? 0 : .infinity }
        return exp(y * log(x))
    }
}
