/// One field of a recording's CSV (a site description's run files): a receiver's RSSI, a coordinate
/// or a time, as written by whatever tool exported the recording. Public recordings mark "not
/// heard" in several ways (a blank, `NaN`, a sentinel such as +100 or −110), so each is read as
/// missing rather than as a reading, and text that is no number at all is told apart for an error.
package enum RecordedCell: Equatable, Sendable {
    case value(Double)
    /// Blank, a word for nothing (`NaN`, `NA`, `null`, …), a non-finite number, or one of the
    /// site's own `not_heard` values.
    case missing
    /// A number outside what the column can hold (an RSSI outside `RecordedCell.rssiRange`).
    case outOfRange(Double)
    /// Text that is no number.
    case unreadable

    /// dBm an RSSI can be: the HCI range of a received signal strength (Core Spec v5.4, Vol 4,
    /// Part E, 7.7.65.2: −127…20).
    package static let rssiRange: ClosedRange<Double> = -127...20

    /// Words exporters write for an empty cell (compared without case).
    static let nothing: Set<String> = ["nan", "-nan", "na", "n/a", "null", "none", "-"]

    /// Reads `field`, its surrounding spaces and double quotes taken off; a value in `notHeard` or
    /// outside `range` is missing or out of range.
    package init(_ field: Substring, notHeard: Set<Double> = [], range: ClosedRange<Double>? = nil) {
        let text = Self.unquoted(field)
        guard !text.isEmpty, !Self.nothing.contains(text.lowercased()) else {
            self = .missing
            return
        }
        guard let number = Double(text) else {
            self = .unreadable
            return
        }
        if !number.isFinite || notHeard.contains(number) {
            self = .missing
        } else if let range, !range.contains(number) {
            self = .outOfRange(number)
        } else {
            self = .value(number)
        }
    }

    /// `field` without surrounding spaces and one pair of surrounding double quotes (a quoted CSV
    /// field: a header name or a number written as text).
    package static func unquoted(_ field: Substring) -> Substring {
        var text = field.drop { $0 == " " || $0 == "\t" }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        return text
    }
}
