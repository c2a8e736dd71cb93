import Foundation
import Testing

@testable import IntegrationSupport

/// Every cross-reference in the code and the docs resolves: a path into the repository names a file
/// or directory that exists, and a docs file (or the README) followed by a quoted section names a
/// heading of that file, so a section renamed or moved breaks here instead of in a reader's hands.
@Suite struct DocReferenceTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files whose text is read: code, docs, scripts, configuration (not the test fixtures).
    static func files() throws -> [String] {
        var found = ["README.md", "Makefile", "Package.swift"]
        for root in ["Sources", "Tests", "docs", "scripts", "etc", "packaging"] {
            guard let walk = FileManager.default.enumerator(atPath: repo.appendingPathComponent(root).path) else {
                continue
            }
            for case let path as String in walk
            where !path.hasPrefix("Fixtures")
                && [".swift", ".md", ".sh", ".yaml", ".py"].contains(where: path.hasSuffix)
            {
                found.append("\(root)/\(path)")
            }
        }
        return found
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repo.appendingPathComponent(path), encoding: .utf8)
    }

    /// Text with line breaks (and the comment markers after them) as single spaces, so a reference
    /// wrapped across comment lines reads as one.
    static func joined(_ text: String) -> String {
        text.replacingOccurrences(of: #"\s*\n\s*(///?|#)?\s*"#, with: " ", options: .regularExpression)
    }

    static func matches(_ pattern: String, in text: String) throws -> [[String]] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { i in Range(match.range(at: i), in: text).map { String(text[$0]) } ?? "" }
        }
    }

    /// The headings of a Markdown file, whitespace collapsed, without backticks.
    static func headings(_ path: String) throws -> [String] {
        try text(path).split(separator: "\n").filter { $0.hasPrefix("#") && $0.contains("# ") }.map { line in
            line.drop { $0 == "#" }.replacingOccurrences(of: "`", with: "")
                .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
                .trimmingCharacters(in: .whitespaces)
        }
    }

    /// A file of docs/ (with or without its directory) or the README, a comma, and a quoted section.
    static func sectionReferences() throws -> [(from: String, file: String, section: String)] {
        var found: [(String, String, String)] = []
        for path in try files() {
            let text = joined(try text(path))
            for match in try matches(#"(?:docs/)?([\w-]+\.md|README), (?:§ ?)?["“]([^"”]{2,80})["”]"#, in: text) {
                let file = match[1] == "README" || match[1] == "README.md" ? "README.md" : "docs/\(match[1])"
                found.append((path, file, match[2]))
            }
        }
        return found
    }

    @Test func theReaderFindsReferences() throws {
        let references = try Self.sectionReferences()
        #expect(references.count >= 20)
        #expect(references.contains { $0.file == "docs/topics.md" && $0.section == "Stats" })
    }

    @Test func everySectionReferenceNamesAHeadingOfItsFile() throws {
        var headings: [String: [String]] = [:]
        for reference in try Self.sectionReferences() {
            let exists = FileManager.default.fileExists(atPath: Self.repo.appendingPathComponent(reference.file).path)
            #expect(exists, "\(reference.from): \(reference.file) does not exist")
            guard exists else { continue }
            if headings[reference.file] == nil { headings[reference.file] = try Self.headings(reference.file) }
            let section = reference.section.replacingOccurrences(of: "`", with: "")
            #expect(
                headings[reference.file]!.contains { $0.hasPrefix(section) },
                "\(reference.from): \(reference.file) has no section \"\(reference.section)\"")
        }
    }

    /// Paths into the repository (under Sources, Tests, docs, scripts, packaging, etc) exist. Globs are read up
    /// to the `*`; `bench/` is the benchmark's output, made when it runs.
    @Test func everyRepositoryPathExists() throws {
        let roots = "Sources|Tests|scripts|packaging|etc|docs"
        for path in try Self.files() {
            let text = try Self.text(path)
            for match in try Self.matches(
                #"(?<![\w/.\-$])((?:\#(roots))/[\w.+\-]{2,}(?:/[\w.+\-]+)*)/?(\*)?"#, in: text)
            {
                var target = match[1]
                while target.hasSuffix(".") { target.removeLast() }
                if !match[2].isEmpty { continue }
                #expect(
                    FileManager.default.fileExists(atPath: Self.repo.appendingPathComponent(target).path),
                    "\(path): \(target) does not exist")
            }
        }
    }

    /// A type named with its module (the possessive form, or "in" the module, in code and docs) is
    /// declared in that module, and a name that reads as a module is one: modules get renamed and
    /// types move, and the prose must follow.
    @Test func everyTypeNamedWithAModuleIsDeclaredThere() throws {
        let sources = Self.repo.appendingPathComponent("Sources")
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path))
        var declarations: [String: String] = [:]
        func declared(_ type: String, in module: String) throws -> Bool {
            if declarations[module] == nil {
                var text = ""
                let walk = FileManager.default.enumerator(atPath: sources.appendingPathComponent(module).path)
                while let path = walk?.nextObject() as? String {
                    if path.hasSuffix(".swift") { text += try Self.text("Sources/\(module)/\(path)") }
                }
                declarations[module] = text
            }
            let pattern = #"(struct|class|enum|protocol|typealias|actor|extension) "# + type + #"\b"#
            return declarations[module]!.range(of: pattern, options: .regularExpression) != nil
        }
        // Names the project once had for its modules, which a stale comment may still use.
        let formerModules: Set = ["Gateway", "GatewayCore", "Beacon2MQTT"]
        for path in try Self.files() {
            for match in try Self.matches(#"\b([A-Z]\w+)'s `([A-Z]\w+)`"#, in: Self.joined(try Self.text(path))) {
                let (module, type) = (match[1], match[2])
                #expect(!formerModules.contains(module), "\(path): \(module)'s `\(type)`: no such module")
                guard modules.contains(module) else { continue }
                #expect(try declared(type, in: module), "\(path): \(module)'s `\(type)` is not declared in \(module)")
            }
        }
    }
}
