import BeaconWire

/// Durations as the configuration writes them: a number with a unit, `10s`, `500ms`, `2m`, `1h`,
/// `1.5s`, `250us`, or several run together (`1m30s`). `0` alone is allowed, since zero needs
/// no unit; any other bare number is refused, because `interval: 100` could mean ms or s.
enum DurationText {
    struct Problem: Error, Equatable {
        var message: String
    }

    private static let units: [(suffix: String, microseconds: Int64)] = [
        ("us", 1), ("ms", 1000), ("s", 1_000_000), ("m", 60_000_000), ("h", 3_600_000_000),
    ]

    static func parse(_ text: String) -> Result<TimeSpan, Problem> {
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
    /// 1000 of it (`90s`, `100ms`), else a decimal of the largest unit that is at least 1
    /// (`10.24s`, `2.5ms`).
    static func format(_ span: TimeSpan) -> String {
        let us = span.microseconds
        if us == 0 { return "0" }
        let descending = units.reversed()
        if let whole = descending.first(where: { us % $0.microseconds == 0 && us / $0.microseconds < 1000 }) {
            return "\(us / whole.microseconds)\(whole.suffix)"
        }
        let unit = descending.first(where: { abs(us) >= $0.microseconds }) ?? units[0]
        var fraction = String(abs(us) % unit.microseconds)
        let width = String(unit.microseconds).count - 1
        fraction = String(repeating: "0", count: width - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = us < 0 ? "-" : ""
        return "\(sign)\(abs(us) / unit.microseconds)\(fraction.isEmpty ? "" : ".\(fraction)")\(unit.suffix)"
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
            guard !digits.isEmpty, digits.count <= 12, let fraction = Int64(digits) else { return .failure(malformed(text)) }
            var scale: Int64 = 1
            for _ in 0..<digits.count { scale *= 10 }
            let (scaled, overflow) = fraction.multipliedReportingOverflow(by: unit)
            guard !overflow else { return .failure(tooLong) }
            guard scaled % scale == 0 else { return .failure(Problem(message: "'\(text)' is finer than a microsecond")) }
            total += scaled / scale
        }
        return .success(total)
    }
}
