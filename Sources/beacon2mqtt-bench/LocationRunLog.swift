import BeaconWire
import Foundation
import RoomScoring
import Vocabulary

/// One run of the `location` section as JSON lines, to study a room engine offline: first every
/// gateway message in the order the locator received it (`message`: that order; `received`: the
/// order the subscriber got it from the gateways; topic; payload as published), then one line per
/// scored second (`tick` RFC 3339, the true position, room, distance to its nearest boundary,
/// whether the tag was at rest, each method's answer: a room, `null` for none, `"?"` unknown, and
/// under `positions` each positioning method's and baseline's `[x, y]` then, where it has one).
struct LocationRunLog {
    private var lines: [String] = []

    mutating func message(_ n: Int, _ m: LocationBench.GatewayMessage) {
        var json = JSONWriter()
        json.beginObject()
        json.field("message", n)
        json.field("received", m.received)
        json.field("topic", m.topic)
        json.key("payload")
        if m.payload.hasPrefix("{") { json.raw(m.payload) } else { json.string(m.payload) }
        json.endObject()
        lines.append(json.text)
    }

    mutating func tick(
        _ time: Double, _ truth: TruthTrack.Sample, room: String, boundary: Double, atRest: Bool,
        answers: some Sequence<(String, RoomAnswer)>, positions: some Sequence<(String, (x: Double, y: Double))>
    ) {
        var json = JSONWriter()
        json.beginObject()
        json.field("tick", ReceiverCaptures.timestamp(time).rfc3339)
        json.field("x", truth.x, decimals: 3)
        json.field("y", truth.y, decimals: 3)
        json.field("room", room)
        json.field("boundary_m", boundary, decimals: 2)
        json.field("at_rest", atRest)
        for (method, answer) in answers {
            // A method's name holds its `locator` keys as given, quotes and all.
            json.key(quoting: method)
            switch answer {
            case .none: json.null()
            case .unknown: json.string("?")
            case .room(let name): json.string(name)
            }
        }
        var placed = false
        for (method, p) in positions {
            if !placed {
                json.key("positions")
                json.beginObject()
                placed = true
            }
            json.key(quoting: method)
            json.beginArray()
            json.double(p.x, decimals: 3)
            json.double(p.y, decimals: 3)
            json.endArray()
        }
        if placed { json.endObject() }
        json.endObject()
        lines.append(json.text)
    }

    func write(to path: String) throws(BenchFailure) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw BenchFailure("cannot write \(path): \(error)")
        }
    }
}
