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
        /// The tag's floor (`recording.floor_column`); nil: the site's one floor.
        var floor: String?
        /// Per receiver (the site's order), its RSSI (dBm) or nil.
        var rssi: [Double?]
    }

    var name: String
    var use: String
    var rows: [Row]

    var start: Double { rows[0].time }
    var end: Double { rows[rows.count - 1].time }
    var truth: TruthTrack { TruthTrack(rows.map { .init(time: $0.time, x: $0.x, y: $0.y, floor: $0.floor) }) }

    /// Every run of the site, in the order of its files; a file with `split_gap_seconds` is split
    /// where rows lie further apart (runs named `<name> 1`, `<name> 2`, …).
    static func load(_ site: SiteDescription, _ tally: inout Tally) throws(BenchFailure) -> [SiteRecording] {
        var runs: [SiteRecording] = []
        for file in site.runs {
            let rows = try readRows(file.path, site: site, &tally)
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

    /// What reading a site's files met besides readings: cells that stood for no reading though
    /// they held a number out of an RSSI's range, and rows without a truth position (interpolated).
    struct Tally {
        var outOfRange = 0
        var unpositioned = 0
    }

    private static func readRows(
        _ path: String, site: SiteDescription, _ tally: inout Tally
    ) throws(BenchFailure)
        -> [Row]
    {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw BenchFailure("cannot read \(path)")
        }
        let lines = text.split(whereSeparator: \.isNewline)
        guard
            let header = lines.first?.split(separator: site.delimiter, omittingEmptySubsequences: false)
                .map({ String(RecordedCell.unquoted($0)) })
        else {
            throw BenchFailure("\(path) is empty")
        }
        func column(_ name: String) throws(BenchFailure) -> Int {
            guard let i = header.firstIndex(of: name) else { throw BenchFailure("\(path) has no column '\(name)'") }
            return i
        }
        let t = try column(site.timeColumn)
        let x = try column(site.xColumn)
        let y = try column(site.yColumn)
        let f = try site.floorColumn.map { (c) throws(BenchFailure) in try column(c) }
        var receivers: [Int] = []
        for receiver in site.receivers { receivers.append(try column(receiver.column)) }
        var times: [Double] = []
        var positions: [(x: Double, y: Double, floor: String?)?] = []
        var signals: [[Double?]] = []
        for (n, line) in lines.dropFirst().enumerated() {
            let fields = line.split(separator: site.delimiter, omittingEmptySubsequences: false)
            let at = "\(path):\(n + 2)"
            guard fields.count == header.count else {
                throw BenchFailure("\(at): \(fields.count) fields where the header has \(header.count)")
            }
            let time: Double
            if case .value(let number) = RecordedCell(fields[t]) {
                time = number * site.timeUnit
            } else if let seconds = RecordedTime.seconds(fields[t]) {
                time = seconds
            } else {
                throw BenchFailure(
                    "\(at): '\(site.timeColumn)' is no time: '\(fields[t])' (a number of 'time_unit_seconds', or a date and time such as 2021-08-03T16:28:19.976Z)"
                )
            }
            switch (RecordedCell(fields[x]), RecordedCell(fields[y])) {
            case (.value(let px), .value(let py)):
                positions.append((px, py, f.map { String(RecordedCell.unquoted(fields[$0])) }))
            case (.unreadable, _), (_, .unreadable):
                throw BenchFailure("\(at): the position '\(fields[x])', '\(fields[y])' is no number")
            default:
                positions.append(nil)
                tally.unpositioned += 1
            }
            var rssi: [Double?] = []
            for (k, c) in receivers.enumerated() {
                switch RecordedCell(fields[c], notHeard: site.notHeard, range: RecordedCell.rssiRange) {
                case .value(let v): rssi.append(v)
                case .missing: rssi.append(nil)
                case .outOfRange:
                    rssi.append(nil)
                    tally.outOfRange += 1
                case .unreadable:
                    throw BenchFailure(
                        "\(at): '\(site.receivers[k].column)' is no RSSI: '\(fields[c])' (a number in dBm, blank or NaN when not heard, or one of 'recording.not_heard')"
                    )
                }
            }
            times.append(time)
            signals.append(rssi)
        }
        // In time order, then the missing positions filled in between their neighbours'.
        let order = times.indices.sorted { times[$0] < times[$1] }
        guard
            let truth = TruthTrack(times: order.map { times[$0] }, positions: order.map { positions[$0] })
        else { throw BenchFailure("\(path) has no row with a position") }
        return zip(order, truth.samples).map { i, p in
            Row(time: p.time, x: p.x, y: p.y, floor: p.floor, rssi: signals[i])
        }
    }
}
