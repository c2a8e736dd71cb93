/// A mapping whose keys have been checked against `ConfigKeys`: unknown keys are errors with a
/// did-you-mean suggestion, so a typo never silently leaves a default in place.
package struct ConfigMapping {
    let at: ConfigValue
    private let values: [String: ConfigValue]

    init(pairs: [YAMLNode.Pair], at: ConfigValue) throws(ConfigError) {
        self.at = at
        let schema = at.path.schemaPath
        let known = at.schema.sections[schema] ?? []
        var values: [String: ConfigValue] = [:]
        for pair in pairs {
            let path = at.path.appending(pair.key)
            let keyValue = at.child(pair.keyNode, path)
            if let reason = at.schema.refused[path.schemaPath] { throw keyValue.error(reason) }
            guard known.contains(pair.key) || at.schema.freeForm.contains(schema) else {
                let hint =
                    Suggestion.closest(to: pair.key, in: known).map { "did you mean '\($0)'?" }
                    ?? "known keys here: \(known.joined(separator: ", "))"
                throw keyValue.error("unknown key; \(hint)")
            }
            values[pair.key] = at.child(pair.value, path)
        }
        self.values = values
    }

    /// The value under `key`, if present. `key` must be one of this section's keys in the schema.
    package subscript(_ key: String) -> ConfigValue? {
        assert(
            at.schema.sections[at.path.schemaPath]?.contains(key) == true
                || at.schema.freeForm.contains(at.path.schemaPath), "\(key) missing from the schema")
        return values[key]
    }

    /// The value under `key`; an error at the mapping when it is missing or empty.
    package func required(_ key: String) throws(ConfigError) -> ConfigValue {
        guard let value = self[key], !value.isNull else {
            throw ConfigError(
                file: at.node.source ?? at.file, line: at.node.line, column: at.node.column,
                key: at.path.appending(key).description,
                message: "missing; this entry needs it")
        }
        return value
    }

    /// The keys present, in no particular order (for free-form sections).
    var keys: Dictionary<String, ConfigValue>.Keys { values.keys }

    /// Reads `key` into `target` when present and not empty; an empty value keeps the default.
    package func read<T>(
        _ key: String, into target: inout T, _ parse: (ConfigValue) throws(ConfigError) -> T
    ) throws(ConfigError) {
        guard let value = self[key], !value.isNull else { return }
        target = try parse(value)
    }

    /// Reads an optional setting: an empty value sets nil.
    func readOptional<T>(
        _ key: String, into target: inout T?, _ parse: (ConfigValue) throws(ConfigError) -> T
    ) throws(ConfigError) {
        guard let value = self[key] else { return }
        target = value.isNull ? nil : try parse(value)
    }

    /// An error about `key` for a rule between keys: located at the first of `keys` present, or at
    /// the mapping itself when the values came from defaults.
    package func error(_ key: String, locatedAt keys: [String], _ message: String) -> ConfigError {
        let node = keys.lazy.compactMap { self.values[$0]?.node }.first ?? at.node
        return ConfigError(
            file: node.source ?? at.file, line: node.line, column: node.column, key: at.path.appending(key).description,
            message: message)
    }
}
