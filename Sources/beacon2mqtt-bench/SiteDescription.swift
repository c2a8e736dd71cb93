import Foundation
import RoomScoring

/// A recorded site for the `location` section, read from its `site.json` (see
/// bench/realdata/kolakowski_flat/ for one): where the recording's files are and how they split into
/// runs, which column is which receiver and the gateway id, floor and room it stands for, the rooms
/// as rectangles, and the tag's measured power. Nothing about a site lives in the bench's code.
struct SiteDescription {
    struct RunFile {
        var name: String
        var path: String
        /// Split the file where consecutive rows are further apart than this (nil: one run).
        var splitGap: Double?
        /// `calibration` or `test`: what a site may fit on, and what it is scored on.
        var use: String
    }

    struct Receiver {
        var column: String
        var gateway: String
        var floor: String
        var room: String
    }

    var name: String
    var timeColumn: String
    var timeUnit: Double
    var xColumn: String
    var yColumn: String
    /// The column naming the tag's floor, for a recording of several floors (nil: one floor).
    var floorColumn: String?
    /// The files' field separator (`,` unless the recording says otherwise).
    var delimiter: Character
    /// RSSI values that stand for "not heard" in this recording (a sentinel such as 100 or −110).
    var notHeard: Set<Double>
    var runs: [RunFile]
    var receivers: [Receiver]
    var rooms: RoomMap
    var measuredPower: Int8
    /// The site plan (`locator.site_plan`) drawn for the site, when it has one.
    var sitePlan: String?

    init(path: String) throws(BenchFailure) {
        guard let data = FileManager.default.contents(atPath: path),
            let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { throw BenchFailure("cannot read the site description \(path)") }
        func text(_ o: [String: Any], _ key: String) throws(BenchFailure) -> String {
            guard let v = o[key] as? String else { throw BenchFailure("\(path): '\(key)' must be text") }
            return v
        }
        func number(_ o: [String: Any], _ key: String) -> Double? { (o[key] as? NSNumber)?.doubleValue }
        func list(_ key: String, in o: [String: Any] = root) throws(BenchFailure) -> [[String: Any]] {
            guard let v = o[key] as? [[String: Any]], !v.isEmpty else {
                throw BenchFailure("\(path): '\(key)' must be a non-empty list of objects")
            }
            return v
        }
        name = try text(root, "name")
        let recording = root["recording"] as? [String: Any] ?? [:]
        timeColumn = try text(recording, "time_column")
        timeUnit = number(recording, "time_unit_seconds") ?? 1
        xColumn = try text(recording, "x_column")
        yColumn = try text(recording, "y_column")
        floorColumn = recording["floor_column"] as? String
        let separator = (recording["delimiter"] as? String) ?? ","
        guard separator.count == 1, let d = separator.first, d != "\"", !d.isNewline else {
            throw BenchFailure("\(path): 'recording.delimiter' must be one character (',' ';' or a tab)")
        }
        delimiter = d
        guard let sentinels = (recording["not_heard"] ?? [NSNumber]()) as? [NSNumber] else {
            throw BenchFailure("\(path): 'recording.not_heard' must be a list of numbers")
        }
        notHeard = Set(sentinels.map(\.doubleValue))
        runs = []
        for r in try list("runs") {
            let file = try text(r, "file")
            runs.append(
                RunFile(
                    name: try text(r, "name"), path: SiteFile.path(file, besideSite: path),
                    splitGap: number(r, "split_gap_seconds"),
                    use: (r["use"] as? String) ?? "test"))
        }
        receivers = []
        for r in try list("receivers") {
            receivers.append(
                Receiver(
                    column: try text(r, "column"), gateway: try text(r, "gateway"), floor: try text(r, "floor"),
                    room: try text(r, "room")))
        }
        var rooms: [RoomMap.Room] = []
        for r in try list("rooms") {
            let name = try text(r, "name")
            // Rectangles (`areas`), a polygon (`points`, as a site plan draws a room), or both.
            var areas =
                try r["areas"] == nil && r["points"] != nil
                ? []
                : list("areas", in: r).map {
                    RoomMap.Area(
                        xMin: number($0, "x_min"), xMax: number($0, "x_max"), yMin: number($0, "y_min"),
                        yMax: number($0, "y_max"))
                }
            if let points = r["points"] {
                guard let pairs = points as? [[NSNumber]], pairs.count >= 3, pairs.allSatisfy({ $0.count == 2 }) else {
                    throw BenchFailure("\(path): room '\(name)': 'points' must be three or more [x, y] pairs")
                }
                areas.append(RoomMap.Area(corners: pairs.map { .init($0[0].doubleValue, $0[1].doubleValue) }))
            }
            rooms.append(RoomMap.Room(name: name, floor: try text(r, "floor"), areas: areas))
        }
        self.rooms = RoomMap(rooms: rooms)
        let tag = root["tag"] as? [String: Any] ?? [:]
        measuredPower = Int8(clamping: Int(number(tag, "measured_power") ?? -59))
        sitePlan = (root["site_plan"] as? String).map { SiteFile.path($0, besideSite: path) }
        if floorColumn == nil, Set(rooms.map(\.floor)).count > 1 {
            throw BenchFailure(
                "\(path): rooms on several floors need 'recording.floor_column', the tag's floor per row")
        }
        for receiver in receivers where self.rooms.rooms.first(where: { $0.name == receiver.room }) == nil {
            throw BenchFailure("\(path): receiver \(receiver.gateway)'s room '\(receiver.room)' is not among the rooms")
        }
    }

    /// The room the truth sample `here` lies in (on its floor, or the site's one floor) and how far
    /// it is from the nearest other room; nil outside every room.
    func room(at here: TruthTrack.Sample) -> (room: RoomMap.Room, boundary: Double)? {
        let floor = here.floor ?? rooms.rooms[0].floor
        guard let room = rooms.room(atX: here.x, y: here.y, floor: floor) else { return nil }
        return (room, rooms.boundaryDistance(x: here.x, y: here.y, floor: floor))
    }
}
