/// One node of a parsed YAML document, with the 1-based position where it starts.
///
/// Built from libyaml's parser events (not its document loader) so every node keeps its mark and
/// every scalar keeps its style: the configuration needs both to say where a value is wrong and
/// to keep a quoted `"5"` a string.
struct YAMLNode: Sendable {
    enum Kind: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        /// Keys in document order; the builder has already rejected duplicates.
        case mapping([Pair])
    }

    /// How a scalar was written (YAML 1.2 §7.3, §8.1): only plain scalars are resolved to null,
    /// booleans or numbers.
    enum ScalarStyle: Sendable, Equatable {
        case plain, singleQuoted, doubleQuoted, literal, folded

        var isPlain: Bool { self == .plain }
    }

    struct Pair: Sendable {
        var key: String
        var keyNode: YAMLNode
        var value: YAMLNode
    }

    var kind: Kind
    /// 1-based line and column (columns count Unicode scalars, as libyaml does).
    var line: Int
    var column: Int
    /// Where the node was read when not the file being decoded: a configuration layer's topic.
    var source: String? = nil

    /// True for an empty plain scalar, `~` or `null`: YAML's null (YAML 1.2 §10.3.2).
    var isNull: Bool {
        guard case .scalar(let text, .plain) = kind else { return false }
        switch text {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// What the node is, for "expected …, found …" messages.
    var kindDescription: String {
        switch kind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, let style):
            if isNull { return "nothing" }
            return style.isPlain ? "'\(text)'" : "the quoted string \"\(text)\""
        }
    }
}
