import BeaconWire
import Vocabulary

/// Durations as the configuration writes them: a number with a unit, `10s`, `500ms`, `2m`, `1h`,
/// `1.5s`, `250us`, or several run together (`1m30s`). `0` alone is allowed, since zero needs
/// no unit; any other bare number is refused, because `interval: 100` could mean ms or s.
package enum DurationText {
    package struct Problem: Error, Equatable {
        package var message: String
    }

    private static let units: [(suffix: String, microseconds: Int64)] = [
        ("us", 1), ("ms", 1000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000),
    ]

    package static func parse(_ text: String) -> Result<TimeSpan, Problem> {
        if text == "0" { return .success(.zero) }
        if text.hasPrefix("-") { return .failure(Problem(message: "must not be negative, found '\(text)'")) }
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            return .failure(Problem(message: "'\(text)' has no unit; add one, e.g. \(text)s or \(text)ms"))
        }
        var rest = Substring(text)
        var total: Int64 = 0
        guard !rest.isEmpty else { return .failure(malformed(text)) }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            rest = rest.dropFirst(number.count)
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            rest = rest.dropFirst(letters.count)
            guard !number.isEmpty, let unit = units.first(where: { $0.suffix == letters }) else {
                return .failure(malformed(text))
            }
            let exact: Int64
            switch microseconds(number, unit: unit.microseconds, text: text) {
            case .success(let value): exact = value
            case .failure(let problem): return .failure(problem)
            }
            let (sum, overflow) = total.addingReportingOverflow(exact)
            guard !overflow else { return .failure(Problem(message: "'\(text)' is too long")) }
            total = sum
        }
        return .success(TimeSpan(microseconds: total))
    }

    /// Readable text that `parse` reads back exactly: a whole number of the largest unit below
    /// 1000 of it (`90s`, `100ms`); else, under a minute, a decimal of the largest unit that is at
    /// least 1 (`10.24s`, `2.5ms`); else hours and minutes then decimal seconds (`1h2m3.5s`).
    package static func format(_ span: TimeSpan) -> String {
        let us = span.microseconds
        if us <= 0 { return us == 0 ? "0" : "-" + format(TimeSpan(microseconds: -us)) }
        if let whole = units.reversed().first(where: { us % $0.microseconds == 0 && us / $0.microseconds < 1000 }) {
            return "\(us / whole.microseconds)\(whole.suffix)"
        }
        let minute: Int64 = 60_000_000
        guard us >= minute else {
            let unit = units[0...2].reversed().first(where: { us >= $0.microseconds }) ?? units[0]
            return decimal(us, unit: unit)
        }
        let (hours, minutes, rest) = (us / (60 * minute), us % (60 * minute) / minute, us % minute)
        return (hours > 0 ? "\(hours)h" : "") + (minutes > 0 ? "\(minutes)m" : "")
            + (rest > 0 ? decimal(rest, unit: units[2]) : "")
    }

    /// `us` in `unit` (us, ms or s: powers of ten apart, so the decimal is exact).
    private static func decimal(_ us: Int64, unit: (suffix: String, microseconds: Int64)) -> String {
        let digits = String(unit.microseconds).count - 1
        var fraction = String(us % unit.microseconds)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(us / unit.microseconds)\(fraction.isEmpty ? "" : "." + fraction)\(unit.suffix)"
    }

    private static func malformed(_ text: String) -> Problem {
        Problem(message: "'\(text)' is not a duration; write a number and a unit: 250ms, 10s, 1.5s, 2m, 1h")
    }

    /// `number` × `unit` µs, exactly: a result finer than a microsecond is refused, not rounded.
    private static func microseconds(_ number: Substring, unit: Int64, text: String) -> Result<Int64, Problem> {
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty, parts[0].count <= 12, let whole = Int64(parts[0]) else {
            return .failure(malformed(text))
        }
        let tooLong = Problem(message: "'\(text)' is too long")
        var (total, overflow) = whole.multipliedReportingOverflow(by: unit)
        guard !overflow else { return .failure(tooLong) }
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 12, let fraction = Int64(digits) else {
                return .failure(malformed(text))
            }
            var scale: Int64 = 1
            for _ in 0..<digits.count { scale *= 10 }
            let (scaled, overflow) = fraction.multipliedReportingOverflow(by: unit)
            guard !overflow else { return .failure(tooLong) }
            guard scaled % scale == 0 else {
                return .failure(Problem(message: "'\(text)' is finer than a microsecond"))
            }
            total += scaled / scale
        }
        return .success(total)
    }
}
