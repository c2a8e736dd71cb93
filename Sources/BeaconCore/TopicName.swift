/// Validation of names that become MQTT topic levels (gateway id, region name, base topic).
///
/// MQTT 3.1.1 §4.7: `+` and `#` are wildcards, `/` separates levels, and U+0000 is forbidden;
/// an empty level would make topics ambiguous, and `$`-topics are reserved for the broker (§4.7.2).
package enum TopicName {
    /// Why `level` cannot be one topic level, or nil when it can.
    package static func problem(level: String) -> String? {
        if level.isEmpty { return "is empty" }
        for scalar in level.unicodeScalars {
            switch scalar {
            case "+": return "contains the MQTT wildcard '+'"
            case "#": return "contains the MQTT wildcard '#'"
            case "/": return "contains '/' (one topic level only)"
            case "\u{0}": return "contains a NUL character"
            default: continue
            }
        }
        return nil
    }

    /// Why `topic` (one or more `/`-separated levels, e.g. a base topic) is unusable, or nil.
    package static func problem(topic: String) -> String? {
        if topic.isEmpty { return "is empty" }
        if topic.hasPrefix("$") { return "starts with '$' (reserved for broker topics)" }
        for (i, level) in topic.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if let p = problem(level: String(level)) { return "level \(i + 1) \(p)" }
        }
        return nil
    }
}
