import BeaconCore
import BeaconWire

/// What the agent writes as YAML for a user or another command to read back: scalars quoted, and
/// `locator.fingerprints` as `beacon2mqtt survey` prints it (`ConfigDecoder.fingerprints` reads it).
package enum YAMLText {
    /// A name as a YAML double-quoted scalar, so `1`, `yes` or `a: b` stay the text they are.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for c in text.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    /// `locator.fingerprints` as flow mappings, one a room: the taught beacon's measured power when
    /// known, and each gateway's `[mean dBm, spread dB, share heard]`, the share kept within what the
    /// configuration accepts (0.001…0.999).
    package static func fingerprints(_ f: RoomFingerprints) -> [String] {
        f.rooms.map { room in
            let rssi = room.levels.keys.sorted().map { g in
                let l = room.levels[g]!
                return "\(quoted(g)): [\(JSONWriter.format(l.mean, decimals: 1)), "
                    + "\(JSONWriter.format(l.spread, decimals: 1)), "
                    + "\(JSONWriter.format(min(max(l.heard, 0.001), 0.999), decimals: 3))]"
            }
            let floor = room.place.floor.map { "floor: \(quoted($0)), " } ?? ""
            let power = room.power.map { "power: \(JSONWriter.format($0, decimals: 1)), " } ?? ""
            return "{\(floor)room: \(quoted(room.place.room)), \(power)rssi: {\(rssi.joined(separator: ", "))}}"
        }
    }
}
