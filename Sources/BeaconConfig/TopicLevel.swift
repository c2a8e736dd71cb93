/// MQTT topic-name rules for the parts of topics the configuration supplies
/// (MQTT 3.1.1 §4.7.1, §4.7.3; MQTT 5.0 §4.7).
///
/// Internal until BeaconCore has its own; the lead will dedupe.
enum TopicLevel {
    /// Why `text` cannot be one topic level, or nil when it can.
    static func problem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty" }
        if text.contains("/") { return "must not contain '/'" }
        if text.contains("+") || text.contains("#") { return "must not contain the MQTT wildcards '+' or '#'" }
        if text.unicodeScalars.contains("\u{0}") { return "must not contain NUL" }
        if text.utf8.count > 65535 { return "is longer than an MQTT topic can be" }
        return nil
    }

    /// Why `text` cannot be a topic prefix of one or more levels (`home/beacons`), or nil.
    static func prefixProblem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty" }
        if text.hasPrefix("/") || text.hasSuffix("/") { return "must not start or end with '/'" }
        if text.hasPrefix("$") { return "must not start with '$' (reserved for broker topics such as $SYS)" }
        for level in text.split(separator: "/", omittingEmptySubsequences: false) {
            if level.isEmpty { return "must not contain an empty level ('//')" }
            if let problem = problem(String(level)) { return problem }
        }
        return nil
    }

    /// Why `text` cannot be a subscription filter (`home/+/BTtoMQTT/+`), or nil: `+` and `#` stand
    /// alone in their level, and `#` only last.
    static func filterProblem(_ text: String) -> String? {
        if text.isEmpty { return "must not be empty" }
        if text.unicodeScalars.contains("\u{0}") { return "must not contain NUL" }
        let levels = text.split(separator: "/", omittingEmptySubsequences: false)
        for (i, level) in levels.enumerated() where level.contains("+") || level.contains("#") {
            if level.count > 1 { return "a wildcard ('+' or '#') must be a whole level" }
            if level == "#", i != levels.count - 1 { return "'#' must be the last level" }
        }
        return nil
    }
}
