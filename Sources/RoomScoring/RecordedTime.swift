/// A recording's time cell written as a date and time (ISO 8601, RFC 3339, or a spreadsheet's
/// `2021-08-03 16:28:19.976`) rather than as a number of seconds: some exporters write rows that
/// way. Only the differences between a run's rows matter, so a time without a zone is read as UTC.
package enum RecordedTime {
    /// Seconds since 1970-01-01T00:00:00Z of `field` (spaces and one pair of quotes taken off):
    /// `YYYY-MM-DD`, `T` or a space, `hh:mm`, optional `:ss` with an optional fraction after `.` or
    /// `,`, and an optional zone `Z`, `±hh`, `±hhmm` or `±hh:mm`; nil for anything else.
    package static func seconds(_ field: Substring) -> Double? {
        var s = Scanner(Array(RecordedCell.unquoted(field).utf8))
        guard let year = s.digits(4), s.skip("-"), let month = s.digits(2), s.skip("-"), let day = s.digits(2),
            s.skip("T") || s.skip("t") || s.skip(" "),
            let hour = s.digits(2), s.skip(":"), let minute = s.digits(2)
        else { return nil }
        var second = 0.0
        if s.skip(":") {
            guard let whole = s.digits(2) else { return nil }
            second = Double(whole)
            if s.skip(".") || s.skip(",") {
                var scale = 0.1
                var any = false
                while let d = s.digit() {
                    second += Double(d) * scale
                    scale /= 10
                    any = true
                }
                guard any else { return nil }
            }
        }
        var offset = 0
        // `Z` is UTC, as no zone is.
        if !(s.skip("Z") || s.skip("z")), let sign = s.sign() {
            guard let h = s.digits(2), h <= 23 else { return nil }
            var m = 0
            if s.skip(":") {
                guard let mm = s.digits(2) else { return nil }
                m = mm
            } else if let mm = s.digits(2) {
                m = mm
            }
            guard m <= 59 else { return nil }
            offset = sign * (h * 3600 + m * 60)
        }
        guard s.atEnd, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour <= 23,
            minute <= 59, second < 61
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Double(days * 86400 + hour * 3600 + minute * 60 - offset) + second
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    /// The cell's bytes, read left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var i = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { i == bytes.count }

        mutating func skip(_ c: Character) -> Bool {
            guard i < bytes.count, let a = c.asciiValue, bytes[i] == a else { return false }
            i += 1
            return true
        }

        mutating func digit() -> Int? {
            guard i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) else { return nil }
            i += 1
            return Int(bytes[i - 1] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            let start = i
            var n = 0
            for _ in 0..<count {
                guard let d = digit() else {
                    i = start
                    return nil
                }
                n = n * 10 + d
            }
            return n
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
