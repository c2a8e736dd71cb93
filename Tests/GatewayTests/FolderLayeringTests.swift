import Foundation
import Testing

/// Folders the compiler does not keep apart yet (Runtime is still a folder of the Gateway module,
/// which also wires the simulator) keep apart by this check: no file of one folder names a type
/// declared in a folder it must not see (comments aside). Modules need no such check.
@Suite struct FolderLayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Each Swift file of `folder` (recursively) with its comments removed.
    static func code(_ folder: String) throws -> [(file: String, text: String)] {
        let root = sources.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return try files.filter { $0.hasSuffix(".swift") }.sorted().map { file in
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            }
            return ("\(folder)/\(file)", lines.joined(separator: "\n"))
        }
    }

    /// The types a folder declares at file level (extensions declare none).
    static func declaredTypes(_ folder: String) throws -> Set<String> {
        let declaration = try NSRegularExpression(
            pattern: #"^(?:public |package |final |private |fileprivate |internal )*(?:struct|class|enum|protocol|actor|typealias) ([A-Z]\w*)"#,
            options: .anchorsMatchLines)
        var names: Set<String> = []
        for (_, text) in try code(folder) {
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }

    /// `file: Name` for every use in `folder` of a type declared in one of `forbidden`.
    static func leaks(_ folder: String, into forbidden: [String]) throws -> [String] {
        let names = try forbidden.reduce(into: Set<String>()) { $0.formUnion(try declaredTypes($1)) }
        var found: [String] = []
        for (file, text) in try code(folder) {
            let words = Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
            found += words.intersection(names).sorted().map { "\(file): \($0)" }
        }
        return found
    }

    @Test func runtimeDoesNotSeeTheSimulation() throws {
        #expect(try Self.declaredTypes("Simulation").contains("SimulatedSource"))
        #expect(try Self.declaredTypes("Gateway/Runtime").contains("Agent"))
        #expect(try Self.leaks("Gateway/Runtime", into: ["Simulation"]) == [])
    }
}
