/// The Prometheus text exposition format, version 0.0.4
/// (https://prometheus.io/docs/instrumenting/exposition_formats/): `# HELP` and `# TYPE` once per
/// family, then its samples, one a line, ending with a line feed. Escapes HELP text (backslash,
/// line feed) and label values (backslash, double quote, line feed) as the format requires.
package struct ExpositionWriter: Sendable {
    package enum MetricType: String, Sendable {
        case counter, gauge, histogram
    }

    /// The `Content-Type` a scrape answer carries.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    package private(set) var text = ""

    package init() { text.reserveCapacity(4096) }

    /// Starts a family: its HELP and TYPE lines.
    package mutating func family(_ name: String, _ type: MetricType, _ help: String) {
        text += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
    }

    package mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Int) {
        line(name, labels, String(value))
    }

    package mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Double) {
        line(name, labels, Self.format(value))
    }

    package mutating func sample(_ name: String, _ value: Int) { line(name, [:], String(value)) }

    package mutating func sample(_ name: String, _ value: Double) { line(name, [:], Self.format(value)) }

    /// A histogram's buckets (cumulative, `le` ascending, then `+Inf`), `_sum` and `_count`.
    package mutating func histogram(_ name: String, _ histogram: LatencyHistogram) {
        var cumulative = 0
        for (bound, count) in zip(LatencyHistogram.bounds, histogram.counts) {
            cumulative += count
            sample(name + "_bucket", ["le": Self.format(bound)], cumulative)
        }
        sample(name + "_bucket", ["le": "+Inf"], histogram.count)
        sample(name + "_sum", histogram.sum)
        sample(name + "_count", histogram.count)
    }

    private mutating func line(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{"
            for (index, label) in labels.enumerated() {
                if index > 0 { text += "," }
                text += "\(label.key)=\"\(Self.escapedLabel(label.value))\""
            }
            text += "}"
        }
        text += " \(value)\n"
    }

    /// Go's ParseFloat reads Swift's shortest round-trip form (`0.005`, `1e-05`); the infinities
    /// and NaN are spelled as the format wants.
    package static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    package static func escapedHelp(_ text: String) -> String {
        escaped(text) { $0 == "\\" ? "\\\\" : $0 == "\n" ? "\\n" : nil }
    }

    package static func escapedLabel(_ text: String) -> String {
        escaped(text) { $0 == "\\" ? "\\\\" : $0 == "\n" ? "\\n" : $0 == "\"" ? "\\\"" : nil }
    }

    private static func escaped(_ text: String, _ replacement: (Character) -> String?) -> String {
        guard text.contains(where: { replacement($0) != nil }) else { return text }
        var out = ""
        for character in text { out += replacement(character) ?? String(character) }
        return out
    }
}
