import BeaconCore
import BeaconWire

/// Payload reading for the locator: single fields of the flat JSON objects the gateways publish
/// (README, “Messages, monitoring and ranging”). Topics are `TopicTree`'s.
enum LocatorTopic {
    /// A string field; nil when missing or `null`.
    static func string(_ key: String, in json: String) -> String? {
        RetainedAttributes.stringField(key, in: json)
    }

    /// A number field; nil when missing, `null` or not a number.
    static func number(_ key: String, in json: String) -> Double? {
        let utf8 = Array(json.utf8)
        let needle = Array("\"\(key)\":".utf8)
        var i = 0
        while i + needle.count <= utf8.count {
            if utf8[i..<(i + needle.count)].elementsEqual(needle) {
                var end = i + needle.count
                while end < utf8.count, utf8[end] != UInt8(ascii: ","), utf8[end] != UInt8(ascii: "}") { end += 1 }
                return Double(String(decoding: utf8[(i + needle.count)..<end], as: UTF8.self))
            }
            i += 1
        }
        return nil
    }
}
