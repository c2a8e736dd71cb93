import BeaconWire
import Foundation

/// Collects the results of one invocation, prints them as a table and writes the JSON files:
/// `<dir>/<section>-<UTC>.json` per section and `<dir>/latest.json` with everything.
struct BenchReport {
    private(set) var results: [BenchResult] = []
    /// Per-section failures (a section that could not run still leaves a line).
    private(set) var failures: [String: String] = [:]
    let startedAt = Date()
    /// Print each result as it arrives.
    var echo = true

    mutating func add(_ result: BenchResult) {
        results.append(result)
        if echo { Console.line(Self.row(result)) }
    }

    mutating func fail(section: String, _ message: String) {
        failures[section] = message
        Console.line("  \(section): NOT MEASURED: \(message)")
    }

    static func header() -> String {
        "section    name                               figures"
    }

    static func row(_ r: BenchResult) -> String {
        func pad(_ s: String, _ n: Int) -> String {
            s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count)
        }
        let figures = r.figures.map { "\(formatted($0.value, decimals: $0.decimals)) \($0.unit)" }.joined(
            separator: "  ")
        return pad(r.section, 10) + " " + pad(r.name, 34) + " " + figures + (r.note.isEmpty ? "" : "  [\(r.note)]")
    }

    /// Thousands separated for big numbers, so 12345678 reads as 12,345,678.
    static func formatted(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "n/a" }
        if decimals > 0 || abs(v) < 10_000 { return JSONWriter.format(v, decimals: max(decimals, 0)) }
        var digits = String(Int64(v.rounded()))
        var out = ""
        let negative = digits.hasPrefix("-")
        if negative { digits.removeFirst() }
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (negative ? "-" : "") + out
    }

    /// A line naming the machine, for the JSON and the table's caption.
    static func machine() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
        var uts = utsname()
        uname(&uts)
        let release = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(model ?? "unknown CPU"), \(ProcessInfo.processInfo.activeProcessorCount) cores, Linux \(release)"
    }

    static func timestamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return f.string(from: date)
    }

    func json(sections: [String]) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.field("started", Self.timestamp(startedAt))
        json.field("machine", Self.machine())
        json.field("commit", ProcessInfo.processInfo.environment["BENCH_COMMIT"])
        json.key("results")
        json.beginArray()
        for r in results where sections.contains(r.section) { r.writeJSON(to: &json) }
        json.endArray()
        json.key("failures")
        json.beginObject()
        for (section, message) in failures.sorted(by: { $0.key < $1.key }) where sections.contains(section) {
            json.field(section, message)
        }
        json.endObject()
        json.endObject()
        return json.text + "\n"
    }

    /// Writes one file per section and latest.json; returns the paths written.
    func write(to directory: String, sections: [String]) throws -> [String] {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stamp = Self.timestamp(startedAt)
        var written: [String] = []
        for section in sections {
            let path = "\(directory)/\(section)-\(stamp).json"
            try json(sections: [section]).write(toFile: path, atomically: true, encoding: .utf8)
            written.append(path)
        }
        let latest = "\(directory)/latest.json"
        try json(sections: sections).write(toFile: latest, atomically: true, encoding: .utf8)
        written.append(latest)
        return written
    }
}
