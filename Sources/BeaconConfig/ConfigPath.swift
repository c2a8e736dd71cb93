/// Where a value sits in the configuration: printed `ranging.filter.window` or `regions[2].uuid`
/// (list indices count from 0).
struct ConfigPath: Sendable, Equatable, CustomStringConvertible {
    enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    var components: [Component] = []

    static let root = ConfigPath()

    func appending(_ key: String) -> ConfigPath { ConfigPath(components: components + [.key(key)]) }
    func appending(index: Int) -> ConfigPath { ConfigPath(components: components + [.index(index)]) }

    var description: String { render(indices: true) }

    /// The path with list indices erased (`regions[].uuid`): the address of a key in `ConfigKeys`.
    var schemaPath: String { render(indices: false) }

    private func render(indices: Bool) -> String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key):
                if !out.isEmpty { out += "." }
                // An empty key (YAML `? ` or `"": 1`) is shown as one, so a diagnostic still names it.
                out += key.isEmpty ? "\"\"" : key
            case .index(let index):
                out += indices ? "[\(index)]" : "[]"
            }
        }
        return out
    }
}
