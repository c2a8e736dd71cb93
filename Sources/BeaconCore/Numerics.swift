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
        let (e, s) = reduced(x)
        let s2 = s * s
        // s2 ≤ 0.0295: 14 terms of Σ s2^k / (2k+1) take the remainder below 1e-21 (Horner: the
        // reciprocals are constants, so a logarithm costs no division but the one above).
        let sum = atanh(s2, terms: 14) * s
        return e * ln2Hi + (2 * sum + e * ln2Lo)
    }

    /// ln x for x ≥ 1 to within 1e-9 (the series of `log` cut after six terms): a likelihood's
    /// logarithm, taken once per grid cell, needs no more.
    static func likelihoodLog(_ x: Double) -> Double {
        let (e, s) = reduced(x)
        let s2 = s * s
        // s2 ≤ 0.0295: the remainder after s2^5 / 11 is below 2e-10. Horner on literal
        // reciprocals, unrolled: taken once per grid cell, the loop over the table cost more
        // than the arithmetic.
        var sum = 1.0 / 11
        sum = sum * s2 + 1.0 / 9
        sum = sum * s2 + 1.0 / 7
        sum = sum * s2 + 1.0 / 5
        sum = sum * s2 + 1.0 / 3
        sum = sum * s2 + 1
        return e * ln2 + 2 * sum * s
    }

    /// Σ s2^k / (2k+1) for k below `terms` (Horner on constant reciprocals: no division).
    @inline(__always) private static func atanh(_ s2: Double, terms: Int) -> Double {
        var sum = 0.0
        for k in stride(from: terms - 1, through: 0, by: -1) { sum = sum * s2 + oddReciprocals[k] }
        return sum
    }

    /// 1/(2k+1) for k = 0…13.
    private static let oddReciprocals: [Double] = (0..<14).map { 1 / Double(2 * $0 + 1) }

    /// x = m·2^e with m in [√½, √2): e, and s = (m−1)/(m+1) (|s| ≤ 0.1716), as ln x = e·ln2 + 2·atanh(s).
    private static func reduced(_ x: Double) -> (e: Double, s: Double) {
        var e = Int(x.exponent)
        var m = x.significand  // [1, 2)
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        return (Double(e), (m - 1) / (m + 1))
    }

    /// e^x: x = k·ln2 + r with |r| ≤ ln2/2, e^r by Taylor series, then scaled by 2^k.
    static func exp(_ x: Double) -> Double {
        if x.isNaN { return .nan }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = (x / ln2).rounded()
        let r = (x - k * ln2Hi) - k * ln2Lo
        // |r| ≤ 0.347: 0.347^18/18! < 1e-24; Horner on the constants 1/n!.
        var sum = 1.0 / 6_402_373_705_728_000  // 1/18!
        sum = sum * r + 1.0 / 355_687_428_096_000
        sum = sum * r + 1.0 / 20_922_789_888_000
        sum = sum * r + 1.0 / 1_307_674_368_000
        sum = sum * r + 1.0 / 87_178_291_200
        sum = sum * r + 1.0 / 6_227_020_800
        sum = sum * r + 1.0 / 479_001_600
        sum = sum * r + 1.0 / 39_916_800
        sum = sum * r + 1.0 / 3_628_800
        sum = sum * r + 1.0 / 362_880
        sum = sum * r + 1.0 / 40_320
        sum = sum * r + 1.0 / 5_040
        sum = sum * r + 1.0 / 720
        sum = sum * r + 1.0 / 120
        sum = sum * r + 1.0 / 24
        sum = sum * r + 1.0 / 6
        sum = sum * r + 1.0 / 2
        sum = sum * r + 1
        sum = sum * r + 1
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
