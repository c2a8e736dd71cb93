import CYAML

/// Turns YAML text into a `YAMLNode` tree with libyaml's event parser (`yaml_parser_parse`).
///
/// Rejected on purpose, with a clear message: anchors and aliases (a configuration should read
/// top to bottom), tags other than `!!str`, duplicate mapping keys, non-scalar keys and more than
/// one document. libyaml's own syntax errors keep its problem text and mark.
struct YAMLDocumentParser {
    let file: String

    /// The root node, or nil when the stream holds no document (an empty or comment-only file).
    func parse(_ bytes: [UInt8]) throws(ConfigError) -> YAMLNode? {
        let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
        defer { parser.deallocate() }
        guard yaml_parser_initialize(parser) == 1 else {
            throw ConfigError(file: file, line: 0, column: 0, key: "", message: "libyaml could not allocate a parser")
        }
        defer { yaml_parser_delete(parser) }

        var input = bytes
        if input.isEmpty { input = [0x0A] }  // libyaml needs a non-null pointer.
        return try input.withUnsafeBufferPointer { (buffer) throws(ConfigError) -> YAMLNode? in
            yaml_parser_set_input_string(parser, buffer.baseAddress, bytes.count)
            var builder = TreeBuilder(file: file)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(parser, &event) == 1 else {
                    throw syntaxError(parser.pointee, bytes: bytes)
                }
                defer { yaml_event_delete(&event) }
                if try builder.handle(event) { break }
            }
            return builder.root
        }
    }

    /// libyaml's problem (and context) at its 0-based mark, shifted to 1-based.
    private func syntaxError(_ parser: yaml_parser_t, bytes: [UInt8]) -> ConfigError {
        var message = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        var line = Int(parser.problem_mark.line) + 1
        var column = Int(parser.problem_mark.column) + 1
        if parser.error == YAML_READER_ERROR {
            // Reader errors (bad encoding) carry a byte offset instead of a mark.
            (line, column) = Self.position(ofByte: parser.problem_offset, in: bytes)
            if parser.problem_value != -1 {
                message += " (byte 0x\(String(UInt8(truncatingIfNeeded: parser.problem_value), radix: 16)))"
            }
        } else if let context = parser.context {
            let contextLine = Int(parser.context_mark.line) + 1
            let contextColumn = Int(parser.context_mark.column) + 1
            message += " (\(String(cString: context)) at line \(contextLine), column \(contextColumn))"
        }
        return ConfigError(file: file, line: line, column: column, key: "", message: message)
    }

    /// 1-based line and column of a byte offset, counting columns in Unicode scalars.
    static func position(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}

/// Assembles nodes from the event stream (YAML 1.2 §3.1.2 "serialization tree").
private struct TreeBuilder {
    let file: String
    private(set) var root: YAMLNode?
    private var stack: [Frame] = []
    private var documents = 0

    private struct Frame {
        var node: YAMLNode
        var path: ConfigPath
        /// A mapping's pending key, waiting for its value.
        var pendingKey: YAMLNode?
        var items: [YAMLNode] = []
        var pairs: [YAMLNode.Pair] = []
        var isMapping: Bool
    }

    init(file: String) { self.file = file }

    /// Consumes one event; true once the stream ended.
    mutating func handle(_ event: yaml_event_t) throws(ConfigError) -> Bool {
        let line = Int(event.start_mark.line) + 1
        let column = Int(event.start_mark.column) + 1
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw ConfigError(
                    file: file, line: line, column: column, key: "",
                    message: "only one YAML document is allowed; remove the second '---'")
            }
        case YAML_ALIAS_EVENT:
            throw error(line, column, "aliases (*name) are not supported; write the value out")
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            try rejectAnchor(scalar.anchor, line, column)
            var style = Self.style(scalar.style)
            if let tag = scalar.tag {
                let name = String(cString: tag)
                guard name == "tag:yaml.org,2002:str" else {
                    throw error(line, column, "YAML tags (\(name)) are not supported")
                }
                style = .doubleQuoted  // `!!str 5` reads as the string "5".
            }
            let text =
                scalar.value.map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self)
                } ?? ""
            try add(YAMLNode(kind: .scalar(text, style), line: line, column: column))
        case YAML_SEQUENCE_START_EVENT:
            try rejectAnchor(event.data.sequence_start.anchor, line, column)
            try rejectTag(event.data.sequence_start.tag, line, column)
            let path = childPath()
            stack.append(
                Frame(node: YAMLNode(kind: .sequence([]), line: line, column: column), path: path, isMapping: false))
        case YAML_MAPPING_START_EVENT:
            try rejectAnchor(event.data.mapping_start.anchor, line, column)
            try rejectTag(event.data.mapping_start.tag, line, column)
            let path = childPath()
            stack.append(
                Frame(node: YAMLNode(kind: .mapping([]), line: line, column: column), path: path, isMapping: true))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            var frame = stack.removeLast()
            frame.node.kind = frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items)
            try add(frame.node)
        default:
            break  // STREAM_START, DOCUMENT_END, NO_EVENT carry nothing for the tree.
        }
        return false
    }

    /// The path of the node about to start inside the innermost open collection.
    private func childPath() -> ConfigPath {
        guard let top = stack.last else { return .root }
        if top.isMapping {
            if case .scalar(let key, _)? = top.pendingKey?.kind { return top.path.appending(key) }
            return top.path
        }
        return top.path.appending(index: top.items.count)
    }

    private mutating func add(_ node: YAMLNode) throws(ConfigError) {
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        guard stack[top].isMapping else {
            stack[top].items.append(node)
            return
        }
        guard let keyNode = stack[top].pendingKey else {
            guard case .scalar(let key, _) = node.kind else {
                throw ConfigError(
                    file: file, line: node.line, column: node.column, key: stack[top].path.description,
                    message: "mapping keys must be plain words, found \(node.kindDescription)")
            }
            if let first = stack[top].pairs.first(where: { $0.key == key }) {
                throw ConfigError(
                    file: file, line: node.line, column: node.column,
                    key: stack[top].path.appending(key).description,
                    message: "duplicate key (first at line \(first.keyNode.line), column \(first.keyNode.column))")
            }
            stack[top].pendingKey = node
            return
        }
        guard case .scalar(let key, _) = keyNode.kind else { return }
        stack[top].pairs.append(YAMLNode.Pair(key: key, keyNode: keyNode, value: node))
        stack[top].pendingKey = nil
    }

    private func rejectAnchor(
        _ anchor: UnsafeMutablePointer<yaml_char_t>?, _ line: Int, _ column: Int
    ) throws(ConfigError) {
        guard let anchor else { return }
        let name = String(cString: anchor)
        throw error(line, column, "anchors (&\(name)) are not supported; write the value out")
    }

    private func rejectTag(_ tag: UnsafeMutablePointer<yaml_char_t>?, _ line: Int, _ column: Int) throws(ConfigError) {
        guard let tag else { return }
        throw error(line, column, "YAML tags (\(String(cString: tag))) are not supported")
    }

    private func error(_ line: Int, _ column: Int, _ message: String) -> ConfigError {
        ConfigError(file: file, line: line, column: column, key: "", message: message)
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLNode.ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}
