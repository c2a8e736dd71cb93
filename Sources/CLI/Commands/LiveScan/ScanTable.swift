import BeaconCore
import BeaconWire
import Vocabulary

/// Renders the `scan` view: a refreshing text table, or one JSON object per beacon per refresh.
package enum ScanTable {
    static let columns = [
        "ID", "MAJOR/MINOR", "NAME", "RSSI", "FILTERED", "ACCURACY", "PROXIMITY", "BATTERY", "SEEN/S", "LAST SEEN",
    ]
    /// ANSI: cursor home, clear screen.
    package static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// The table, header first; `now` turns last-seen times into ages. Rows keep the given order.
    package static func text(_ rows: [ScanTableRow], now: Timestamp, title: String) -> String {
        let cells = rows.map { row -> [String] in
            [
                row.primaryID, row.secondaryID, row.name ?? "-",
                row.rssi.map { JSONWriter.format($0, decimals: 1) } ?? "-",
                row.filteredRSSI.map { JSONWriter.format($0, decimals: 1) } ?? "-",
                row.accuracy.map { JSONWriter.format($0, decimals: 2) + " m" } ?? "-",
                row.proximity ?? "-",
                row.batteryMillivolts.map { "\($0) mV" } ?? "-",
                JSONWriter.format(row.seenPerSecond, decimals: 1),
                JSONWriter.format((now - row.lastSeen).seconds, decimals: 1) + " s ago",
            ]
        }
        var widths = columns.map(\.count)
        for line in cells {
            for (i, cell) in line.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        // Numbers read best right-aligned.
        let rightAligned: Set<Int> = [3, 4, 5, 7, 8]
        func format(_ line: [String]) -> String {
            line.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        var out = title + "\n\n" + format(columns)
        for line in cells { out += format(line) }
        if rows.isEmpty { out += "(no beacons in range yet)\n" }
        return out
    }

    /// One compact JSON object per row, stamped with `now` (RFC 3339).
    package static func jsonLines(_ rows: [ScanTableRow], now: Timestamp) -> String {
        var out = ""
        for row in rows {
            var w = JSONWriter()
            w.beginObject()
            w.field("time", now.rfc3339)
            switch row.identity.scheme {
            case .uuid:
                w.field("uuid", row.identity.id.uuidString)
                w.field("major", Int(row.identity.major))
                w.field("minor", Int(row.identity.minor))
            case .eddystone:
                w.field("namespace", row.identity.eddystoneNamespace)
                w.field("instance", row.identity.eddystoneInstance)
            case .device:
                w.field("identity", row.kind?.rawValue)
                w.field("address", row.address?.description)
            }
            w.field("name", row.name)
            w.field("rssi", row.rssi, decimals: 1)
            w.field("rssi_filtered", row.filteredRSSI, decimals: 1)
            w.field("accuracy", row.accuracy, decimals: 2)
            w.field("proximity", row.proximity)
            w.field("battery_mv", row.batteryMillivolts.map { Int($0) })
            w.field("seen_per_second", row.seenPerSecond, decimals: 1)
            w.field("last_seen", row.lastSeen.rfc3339)
            w.endObject()
            out += w.text + "\n"
        }
        return out
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
