import BeaconCore
import BeaconWire
import Vocabulary

/// Reads back our own retained `attributes` messages at start, for `BeaconMonitor.restore`.
///
/// Subscribe to `TopicTree.restoreSubscriptions`, collect what arrives before the broker's retained
/// burst ends, and pass each message here. Only the fields this agent writes are read; anything else is nil.
package enum RetainedAttributes {
    /// The state recorded by one retained attributes message, or nil when the topic or payload is
    /// not one of ours (other gateway, other base topic, empty payload of a cleared topic).
    package static func restoredState(
        topic: String, payload: String, baseTopic: String, gatewayID: String
    )
        -> RestoredState?
    {
        guard let (subject, leaf) = subject(of: topic, baseTopic: baseTopic, gatewayID: gatewayID), leaf == .attributes,
            let o = try? JSONObject(payload), let stateText = o.string("state"),
            let state = RegionState(rawValue: stateText)
        else { return nil }
        return RestoredState(
            subject: subject, state: state, since: o.string("since").flatMap(timestamp(rfc3339:)),
            lastSeen: o.string("last_seen").flatMap(timestamp(rfc3339:)))
    }

    /// The region or beacon of one of this gateway's retained topics (`state` or `attributes`), or nil
    /// when the topic is none of ours.
    package static func subject(
        of topic: String, baseTopic: String, gatewayID: String
    )
        -> (RestoredState.Subject, TopicTree.Leaf)?
    {
        switch TopicTree(base: baseTopic, gateway: gatewayID).parse(topic) {
        case .region(let name, gateway: gatewayID, let leaf)? where leaf == .state || leaf == .attributes:
            return (.region(name), leaf)
        case .beacon(let id, gateway: gatewayID, let leaf)? where leaf == .state || leaf == .attributes:
            return (.beacon(id), leaf)
        default: return nil
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (RFC 3339 in UTC, as `Timestamp.rfc3339` prints it).
    package static func timestamp(rfc3339 text: String) -> Timestamp? {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= b.count else { return nil }
            var v: Int64 = 0
            for c in b[from..<(from + count)] {
                guard c >= 0x30 && c <= 0x39 else { return nil }
                v = v * 10 + Int64(c - 0x30)
            }
            return v
        }
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"), b[13] == UInt8(ascii: ":"),
            b[16] == UInt8(ascii: ":"), let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var micros: Int64 = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            var scale: Int64 = 100_000
            let start = i
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                micros += Int64(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        guard i == b.count - 1, b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Timestamp(microseconds: seconds * 1_000_000 + micros)
    }
}
