/// The stored properties each struct, class, actor and enum of a Swift source declares: `let` and
/// `var` at the type's top level, neither `static` nor `class`, and for `var` not computed (a body
/// other than `willSet`/`didSet` observers). An extension adds none; its nested types count apart.
///
/// A scanner, not a parser: comments and string literals (with their interpolations) are skipped,
/// braces and brackets nest, and a declaration ends at its line's end unless a bracket, an `=` or
/// a body carries it on. That is what the house's formatted sources need.
package struct StoredProperties {
    package struct TypeDeclaration: Equatable, CustomStringConvertible {
        /// The qualified name: `Outer.Inner`, an extension's nested type under the extended name.
        package var name: String
        package var line: Int
        package var properties: [String]

        package var description: String {
            "\(name) (line \(line)): \(properties.count) stored properties: \(properties.joined(separator: ", "))"
        }
    }

    private struct Token {
        var text: String
        var line: Int
    }

    private struct Scope {
        /// The type's qualified name (an extension's: the extended name, not counted).
        var name: String?
        var countsProperties: Bool
        /// Bracket depth when the scope opened: a member sits at exactly this depth.
        var brackets: Int
        var declaration: Int?
    }

    package private(set) var types: [TypeDeclaration] = []

    package init(source: String) {
        let tokens = Self.tokens(Array(source.utf8))
        scan(tokens)
    }

    private static let typeKeywords: Set<String> = ["struct", "class", "actor", "enum", "extension", "protocol"]
    private static let keywords: Set<String> = [
        "case", "func", "var", "let", "subscript", "init", "deinit", "in", "override", "final", "static", "class",
        "private", "fileprivate", "internal", "package", "public", "open", "mutating", "nonmutating", "where",
    ]

    private mutating func scan(_ tokens: [Token]) {
        var scopes: [Scope] = []
        var brackets = 0
        var pending: (name: String, counts: Bool, line: Int)?
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            switch token.text {
            case "(", "[": brackets += 1
            case ")", "]": brackets -= 1
            case "{":
                if let p = pending {
                    let declaration = p.counts ? types.count : nil
                    if p.counts { types.append(TypeDeclaration(name: p.name, line: p.line, properties: [])) }
                    scopes.append(
                        Scope(name: p.name, countsProperties: p.counts, brackets: brackets, declaration: declaration))
                    pending = nil
                } else {
                    scopes.append(Scope(name: nil, countsProperties: false, brackets: brackets, declaration: nil))
                }
            case "}":
                _ = scopes.popLast()
            case _ where Self.typeKeywords.contains(token.text):
                guard i + 1 < tokens.count, Self.isIdentifier(tokens[i + 1].text),
                    !Self.keywords.contains(tokens[i + 1].text)
                else { break }
                // `class var`/`class func` are members; `extension A.B` names a nested type.
                var name = tokens[i + 1].text
                var j = i + 2
                while j + 1 < tokens.count, tokens[j].text == ".", Self.isIdentifier(tokens[j + 1].text) {
                    name += "." + tokens[j + 1].text
                    j += 2
                }
                let outer = token.text == "extension" ? nil : scopes.last(where: { $0.name != nil })?.name
                pending = (
                    outer.map { $0 + "." + name } ?? name,
                    !["extension", "protocol"].contains(token.text), token.line
                )
                i = j
                continue
            case "var", "let":
                guard let scope = scopes.last, scope.countsProperties, brackets == scope.brackets,
                    let declaration = scope.declaration, !Self.isStatic(tokens, before: i)
                else { break }
                let (names, end) = Self.bindings(tokens, from: i)
                types[declaration].properties += names
                i = end
                continue
            default: break
            }
            i += 1
        }
    }

    /// `static` or `class` among the modifiers before the `var`/`let` at `index` on its line.
    private static func isStatic(_ tokens: [Token], before index: Int) -> Bool {
        var j = index - 1
        while j >= 0, tokens[j].line == tokens[index].line, !["{", "}", ";"].contains(tokens[j].text) {
            if tokens[j].text == "static" || tokens[j].text == "class" { return true }
            j -= 1
        }
        return false
    }

    /// The stored names the declaration at `index` binds (none when it is computed), and the
    /// index after it. It ends with its line, unless a bracket or a body carries it on.
    private static func bindings(_ tokens: [Token], from index: Int) -> ([String], Int) {
        guard index + 1 < tokens.count, isIdentifier(tokens[index + 1].text) else { return ([], index + 1) }
        let isVar = tokens[index].text == "var"
        var names = [tokens[index + 1].text]
        var depth = 0
        var initialized = false
        var j = index + 2
        while j < tokens.count {
            let t = tokens[j]
            if depth == 0, t.line != tokens[j - 1].line { break }
            switch t.text {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            case "{" where depth == 0:
                // A body straight after the type: computed, unless it holds observers only.
                let observers = j + 1 < tokens.count && ["willSet", "didSet"].contains(tokens[j + 1].text)
                if isVar, !initialized, !observers { names.removeLast() }
                return (names, skipBody(tokens, from: j))
            case "{": depth += 1
            case "}" where depth == 0: return (names, j)
            case "}": depth -= 1
            case "=" where depth == 0: initialized = true
            case "," where depth == 0:
                // `var a = 1, b: Int`; a comma in a generic argument list names no binding.
                if j + 2 < tokens.count, isIdentifier(tokens[j + 1].text), [":", "="].contains(tokens[j + 2].text) {
                    names.append(tokens[j + 1].text)
                    initialized = false
                }
            case ";" where depth == 0: return (names, j + 1)
            default: break
            }
            j += 1
        }
        return (names, j)
    }

    private static func skipBody(_ tokens: [Token], from open: Int) -> Int {
        var depth = 0
        var j = open
        while j < tokens.count {
            if tokens[j].text == "{" { depth += 1 }
            if tokens[j].text == "}" {
                depth -= 1
                if depth == 0 { return j + 1 }
            }
            j += 1
        }
        return j
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first else { return false }
        return first == "_" || first == "`" || first.isLetter
    }

    private enum Context {
        case code(parens: Int, interpolation: Bool)
        case string(multiline: Bool, hashes: Int)
    }

    /// The code's tokens: identifiers, operator runs and single punctuation, with their lines;
    /// comments and string literals (interpolations included) are left out.
    private static func tokens(_ b: [UInt8]) -> [Token] {
        var out: [Token] = []
        var stack: [Context] = [.code(parens: 0, interpolation: false)]
        var line = 1
        var i = 0
        let n = b.count
        func at(_ k: Int) -> UInt8 { k < n ? b[k] : 0 }
        func hashes(from k: Int) -> Int {
            var h = 0
            while at(k + h) == UInt8(ascii: "#") { h += 1 }
            return h
        }
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: "\n") { line += 1 }
            switch stack[stack.count - 1] {
            case .string(let multiline, let h):
                if c == UInt8(ascii: "\\"), hashes(from: i + 1) == h {
                    if at(i + 1 + h) == UInt8(ascii: "(") {
                        stack.append(.code(parens: 0, interpolation: true))
                        i += 2 + h
                    } else {
                        if at(i + 1 + h) == UInt8(ascii: "\n") { line += 1 }
                        i += 2 + h
                    }
                    continue
                }
                let quotes = multiline ? 3 : 1
                if c == UInt8(ascii: "\""), (0..<quotes).allSatisfy({ at(i + $0) == UInt8(ascii: "\"") }),
                    hashes(from: i + quotes) == h
                {
                    stack.removeLast()
                    i += quotes + h
                    continue
                }
                i += 1
            case .code(let parens, let interpolation):
                if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "/") {
                    while i < n, b[i] != UInt8(ascii: "\n") { i += 1 }
                    continue
                }
                if c == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                    var depth = 0
                    repeat {
                        if at(i) == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "*") {
                            depth += 1
                            i += 2
                        } else if at(i) == UInt8(ascii: "*"), at(i + 1) == UInt8(ascii: "/") {
                            depth -= 1
                            i += 2
                        } else {
                            if at(i) == UInt8(ascii: "\n") { line += 1 }
                            i += 1
                        }
                    } while depth > 0 && i < n
                    continue
                }
                let h = c == UInt8(ascii: "#") ? hashes(from: i) : 0
                if c == UInt8(ascii: "\"") || (h > 0 && at(i + h) == UInt8(ascii: "\"")) {
                    let multiline = (0..<3).allSatisfy { at(i + h + $0) == UInt8(ascii: "\"") }
                    stack.append(.string(multiline: multiline, hashes: h))
                    i += h + (multiline ? 3 : 1)
                    continue
                }
                if interpolation, c == UInt8(ascii: "(") || c == UInt8(ascii: ")") {
                    if c == UInt8(ascii: ")"), parens == 0 {
                        stack.removeLast()
                        i += 1
                        continue
                    }
                    stack[stack.count - 1] = .code(
                        parens: parens + (c == UInt8(ascii: "(") ? 1 : -1), interpolation: true)
                }
                let start = i
                if Self.isWordByte(c) {
                    while i < n, Self.isWordByte(b[i]) { i += 1 }
                } else if c == UInt8(ascii: "`") {
                    i += 1
                    while i < n, b[i] != UInt8(ascii: "`") { i += 1 }
                    i += 1
                } else if Self.isOperatorByte(c) {
                    while i < n, Self.isOperatorByte(b[i]) { i += 1 }
                } else {
                    i += 1
                }
                if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t")
                    || c == UInt8(ascii: "\r")
                {
                    continue
                }
                out.append(Token(text: String(decoding: b[start..<i], as: UTF8.self), line: line))
            }
        }
        return out
    }

    /// A letter, digit, `_` or a byte of a non-ASCII character.
    private static func isWordByte(_ c: UInt8) -> Bool {
        let lower = c | 0x20
        return c == UInt8(ascii: "_") || c >= 0x80 || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
            || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    }

    private static func isOperatorByte(_ c: UInt8) -> Bool {
        "=+-*/%<>!&|^~?".utf8.contains(c)
    }
}
