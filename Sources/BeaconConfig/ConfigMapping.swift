/// A mapping whose keys have been checked against `ConfigKeys`: unknown keys are errors with a
/// did-you-mean suggestion, so a typo never silently leaves a default in place.
struct ConfigMapping {
    let at: ConfigValue
    private let values: [String: ConfigValue]

    init(pairs: [YAMLNode.Pair], at: ConfigValue) throws(ConfigError) {
        self.at = at
        let schema = at.path.schemaPath
        let known = ConfigKeys.sections[schema] ?? []
        var values: [String: ConfigValue] = [:]
        for pair in pairs {
            let path = at.path.appending(pair.key)
            let keyValue = ConfigValue(node: pair.keyNode, path: path, file: at.file)
            if let reason = ConfigKeys.refused[path.schemaPath] { throw keyValue.error(reason) }
            guard known.contains(pair.key) || ConfigKeys.freeForm.contains(schema) else {
                let hint = Suggestion.closest(to: pair.key, in: known).map { "did you mean '\($0)'?" }
                    ?? "known keys here: \(known.joined(separator: ", "))"
                throw keyValue.error("unknown key; \(hint)")
            }
            values[pair.key] = ConfigValue(node: pair.value, path: path, file: at.file)
        }
        self.values = values
    }

    /// The value under `key`, if present. `key` must be one of this section's `ConfigKeys`.
    subscript(_ key: String) -> ConfigValue? {
        assert(
            ConfigKeys.sections[at.path.schemaPath]?.contains(key) == true
                || ConfigKeys.freeForm.contains(at.path.schemaPath), "\(key) missing from ConfigKeys")
        return values[key]
    }

    /// The keys present, in no particular order (for free-form sections).
    var keys: Dictionary<String, ConfigValue>.Keys { values.keys }

    /// Reads `key` into `target` when present and not empty; an empty value keeps the default.
    func read<T>(_ key: String, into target: inout T, _ parse: (ConfigValue) throws(ConfigError) -> T) throws(ConfigError) {
        guard let value = self[key], !value.isNull else { return }
        target = try parse(value)
    }

    /// Reads an optional setting: an empty value sets nil.
    func readOptional<T>(_ key: String, into target: inout T?, _ parse: (ConfigValue) throws(ConfigError) -> T) throws(ConfigError) {
        guard let value = self[key] else { return }
        target = value.isNull ? nil : try parse(value)
    }

    /// An error about `key` for a rule between keys: located at the first of `keys` present, or at
    /// the mapping itself when the values came from defaults.
    func error(_ key: String, locatedAt keys: [String], _ message: String) -> ConfigError {
        let node = keys.lazy.compactMap { self.values[$0]?.node }.first ?? at.node
        return ConfigError(
            file: at.file, line: node.line, column: node.column, key: at.path.appending(key).description, message: message)
    }
}
