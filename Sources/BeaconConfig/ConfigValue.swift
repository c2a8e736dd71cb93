import BeaconWire
import Vocabulary

/// One value of the YAML tree with its key path: the typed readers the decoder uses. Each
/// failure names the value's own position and path.
package struct ConfigValue {
    let node: YAMLNode
    let path: ConfigPath
    let file: String
    /// The keys its mappings accept.
    let schema: ConfigSchema

    init(node: YAMLNode, path: ConfigPath, file: String, schema: ConfigSchema = .configuration) {
        self.node = node
        self.path = path
        self.file = file
        self.schema = schema
    }

    /// The document in `bytes` (libyaml, `YAMLDocumentParser`), nil when it holds none (empty or
    /// only comments). Its mappings accept the keys of `schema`.
    package static func document(
        _ bytes: [UInt8], file: String, schema: ConfigSchema
    ) throws(ConfigError)
        -> ConfigValue?
    {
        try YAMLDocumentParser(file: file).parse(bytes).map {
            ConfigValue(node: $0, path: .root, file: file, schema: schema)
        }
    }

    /// A node below this one, at `path`, read with the same schema.
    func child(_ node: YAMLNode, _ path: ConfigPath) -> ConfigValue {
        ConfigValue(node: node, path: path, file: file, schema: schema)
    }

    package func error(_ message: String) -> ConfigError {
        ConfigError(
            file: node.source ?? file, line: node.line, column: node.column, key: path.description, message: message)
    }

    func warning(_ message: String) -> ConfigWarning {
        ConfigWarning(
            file: node.source ?? file, line: node.line, column: node.column, key: path.description, message: message)
    }

    var isNull: Bool { node.isNull }

    /// Any scalar as written: numbers stay text (`floor: 2` is "2"), quotes are removed.
    package func text() throws(ConfigError) -> String {
        guard case .scalar(let text, _) = node.kind, !node.isNull else {
            throw error("expected a text value, found \(node.kindDescription)")
        }
        return text
    }

    package func nonEmptyText() throws(ConfigError) -> String {
        let value = try text()
        guard !value.isEmpty else { throw error("must not be empty") }
        return value
    }

    /// An unquoted scalar: numbers and booleans must not be quoted, so `"5"` is never a number.
    private func plain(_ expected: String) throws(ConfigError) -> String {
        guard case .scalar(let text, .plain) = node.kind, !node.isNull else {
            throw error("expected \(expected), found \(node.kindDescription)")
        }
        return text
    }

    /// YAML 1.1 booleans: true/false, yes/no, on/off, in any case.
    func bool() throws(ConfigError) -> Bool {
        let text = try plain("true or false")
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false, found '\(text)'")
        }
    }

    /// A decimal integer (underscores allowed as separators) within `range`.
    package func integer(in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        let text = try plain("a whole number")
        guard let value = Int(text.filter { $0 != "_" }), !text.hasPrefix("_") else {
            throw error("expected a whole number, found '\(text)'")
        }
        guard range.contains(value) else {
            throw error("must be between \(range.lowerBound) and \(range.upperBound), found \(value)")
        }
        return value
    }

    func integer(atLeast minimum: Int) throws(ConfigError) -> Int {
        let value = try integer(in: Int.min...Int.max)
        guard value >= minimum else { throw error("must be at least \(minimum), found \(value)") }
        return value
    }

    /// A finite decimal number.
    package func number() throws(ConfigError) -> Double {
        let text = try plain("a number")
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let value = Double(text),
            value.isFinite
        else {
            throw error("expected a number, found '\(text)'")
        }
        return value
    }

    package func number(in range: ClosedRange<Double>) throws(ConfigError) -> Double {
        let value = try number()
        guard range.contains(value) else {
            throw error(
                "must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), found \(Self.format(value))"
            )
        }
        return value
    }

    package func number(atLeast minimum: Double) throws(ConfigError) -> Double {
        let value = try number()
        guard value >= minimum else {
            throw error("must be at least \(Self.format(minimum)), found \(Self.format(value))")
        }
        return value
    }

    /// A number strictly greater than zero.
    func positiveNumber() throws(ConfigError) -> Double {
        let value = try number()
        guard value > 0 else { throw error("must be greater than 0, found \(Self.format(value))") }
        return value
    }

    /// A duration (`DurationText`).
    func duration() throws(ConfigError) -> TimeSpan {
        guard case .scalar(let text, _) = node.kind, !node.isNull else {
            throw error("expected a duration such as 10s, found \(node.kindDescription)")
        }
        switch DurationText.parse(text) {
        case .success(let span): return span
        case .failure(let problem): throw error(problem.message)
        }
    }

    func duration(in range: ClosedRange<TimeSpan>) throws(ConfigError) -> TimeSpan {
        let span = try duration()
        guard range.contains(span) else {
            throw error(
                "must be between \(DurationText.format(range.lowerBound)) and \(DurationText.format(range.upperBound)), "
                    + "found \(DurationText.format(span))")
        }
        return span
    }

    func duration(atLeast minimum: TimeSpan, orOff: Bool = false) throws(ConfigError) -> TimeSpan {
        let span = try duration()
        if orOff, span == .zero { return span }
        guard span >= minimum else {
            let off = orOff ? " (or 0 to turn it off)" : ""
            throw error("must be at least \(DurationText.format(minimum))\(off), found \(DurationText.format(span))")
        }
        return span
    }

    /// One of an enumeration's raw values, with a suggestion for a near miss.
    func choice<E: RawRepresentable & CaseIterable>(_ type: E.Type) throws(ConfigError) -> E
    where E.RawValue == String {
        let text = try text()
        if let value = E(rawValue: text) { return value }
        let names = E.allCases.map(\.rawValue)
        let hint = Suggestion.closest(to: text, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw error("must be one of \(names.joined(separator: ", ")), found '\(text)'\(hint)")
    }

    /// `count` hexadecimal digits (any case), as their integer value.
    func hex(digits count: Int, what: String) throws(ConfigError) -> [UInt8] {
        let text = try text()
        guard let bytes = Hex.bytes(text, digits: count) else {
            throw error("\(what) must be \(count) hexadecimal digits, found '\(text)'")
        }
        return bytes
    }

    /// A mapping's entries after checking them against `ConfigKeys` (unknown keys are errors).
    package func mapping() throws(ConfigError) -> ConfigMapping {
        switch node.kind {
        case .mapping(let pairs):
            return try ConfigMapping(pairs: pairs, at: self)
        default:
            if node.isNull { return try ConfigMapping(pairs: [], at: self) }
            throw error("expected a mapping of keys, found \(node.kindDescription)")
        }
    }

    /// A list's items; an empty value is an empty list.
    package func list() throws(ConfigError) -> [ConfigValue] {
        if node.isNull { return [] }
        guard case .sequence(let items) = node.kind else {
            throw error("expected a list (items start with '- '), found \(node.kindDescription)")
        }
        return items.enumerated().map { index, item in child(item, path.appending(index: index)) }
    }

    /// Short decimal form: 0.5, 4, -30.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
