import Foundation
import RoomScoring

/// One run of a recorded site: per row its time, the tag's true position and what each receiver
/// heard (nil: not heard), read from the CSV files a `SiteDescription` names.
struct SiteRecording {
    struct Row {
        /// Seconds since the epoch.
        var time: Double
        var x: Double
        var y: Double
        /// Per receiver (the site's order), its RSSI (dBm) or nil.
        var rssi: [Double?]
    }

    var name: String
    var use: String
    var rows: [Row]

    var start: Double { rows[0].time }
    var end: Double { rows[rows.count - 1].time }
    var truth: TruthTrack { TruthTrack(rows.map { .init(time: $0.time, x: $0.x, y: $0.y) }) }

    /// Every run of the site, in the order of its files; a file with `split_gap_seconds` is split
    /// where rows lie further apart (runs named `<name> 1`, `<name> 2`, …).
    static func load(_ site: SiteDescription) throws(BenchFailure) -> [SiteRecording] {
        var runs: [SiteRecording] = []
        for file in site.runs {
            let rows = try readRows(file.path, site: site)
            var parts: [[Row]] = [[]]
            for row in rows {
                if let gap = file.splitGap, let last = parts[parts.count - 1].last, row.time - last.time > gap {
                    parts.append([])
                }
                parts[parts.count - 1].append(row)
            }
            for (i, part) in parts.enumerated() where !part.isEmpty {
                runs.append(
                    SiteRecording(
                        name: parts.count > 1 ? "\(file.name) \(i + 1)" : file.name, use: file.use, rows: part))
            }
        }
        return runs
    }

    private static func readRows(_ path: String, site: SiteDescription) throws(BenchFailure) -> [Row] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchFailure("cannot read \(path)")
        }
        let lines = text.split(whereSeparator: \.isNewline)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else {
            throw BenchFailure("\(path) is empty")
        }
        func column(_ name: String) throws(BenchFailure) -> Int {
            guard let i = header.firstIndex(of: name) else { throw BenchFailure("\(path) has no column '\(name)'") }
            return i
        }
        let t = try column(site.timeColumn)
        let x = try column(site.xColumn)
        let y = try column(site.yColumn)
        var receivers: [Int] = []
        for receiver in site.receivers { receivers.append(try column(receiver.column)) }
        var rows: [Row] = []
        for (n, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == header.count, let time = Double(fields[t]), let px = Double(fields[x]),
                let py = Double(fields[y])
            else {
                throw BenchFailure("\(path):\(n + 2): a row needs \(header.count) fields with a time and a position")
            }
            rows.append(
                Row(
                    time: time * site.timeUnit, x: px, y: py,
                    rssi: receivers.map { fields[$0].isEmpty ? nil : Double(fields[$0]) }))
        }
        guard !rows.isEmpty else { throw BenchFailure("\(path) has no rows") }
        return rows.sorted { $0.time < $1.time }
    }
}
