import Foundation
import Testing

@testable import CLI
@testable import IntegrationSupport

/// README's commands as a new user types them: every console example prints what README shows
/// (`…` stands for text README leaves out), the configuration README gives passes `check-config`
/// once the password file exists and fails it before, every `beacon2mqtt` line parses, and every
/// `make` target it names exists.
@Suite struct ReadmeCommandTests {
    /// A fenced block of README.md: its language and lines.
    struct Block {
        var language: String
        var lines: [String]
    }

    static let readme: String =
        (try? String(contentsOf: PackagePaths.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    static var blocks: [Block] {
        var blocks: [Block] = []
        var open: Block?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    open = Block(language: String(line.dropFirst(3)), lines: [])
                }
            } else {
                open?.lines.append(line)
            }
        }
        return blocks
    }

    /// A console example: the command after `$ ` and the lines it prints.
    struct Example: CustomTestStringConvertible, Sendable {
        var command: String
        var output: [String]
        var testDescription: String { String(command.prefix(60)) }
    }

    static var examples: [Example] {
        var examples: [Example] = []
        for block in blocks where block.language == "console" {
            for line in block.lines {
                if line.hasPrefix("$ ") {
                    examples.append(Example(command: String(line.dropFirst(2)), output: []))
                } else {
                    examples[examples.count - 1].output.append(line)
                }
            }
        }
        return examples
    }

    /// Whether `text` is what README shows: line by line, a line of `…` alone standing for any
    /// number of lines and a `…` within a line for any text on it.
    static func matches(_ text: String, shown: [String]) -> Bool {
        let pattern = shown.map { line in
            line == "…"
                ? "(?:[^\\n]*\\n)*?"
                : line.components(separatedBy: "…").map(NSRegularExpression.escapedPattern(for:))
                    .joined(separator: "[^\\n]*") + "\\n"
        }.joined()
        guard let regex = try? NSRegularExpression(pattern: "\\A" + pattern + "\\z") else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The words of a command line, without a `sudo` before it or a `# comment` after it.
    static func words(_ line: String) -> [String] {
        let command = line.components(separatedBy: " #").first ?? line
        var words = command.split(separator: " ").map(String.init)
        if words.first == "sudo" { words.removeFirst() }
        return words
    }

    /// `decode` and `replay` need nothing but the repository: they print exactly what README shows.
    @Test(
        arguments: examples.filter {
            words($0.command).dropFirst().first.map { ["decode", "replay"].contains($0) } ?? false
        })
    func aConsoleExamplePrintsWhatReadmeShows(_ example: Example) throws {
        let arguments = Self.words(example.command).dropFirst().map { word in
            FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent(word).path)
                ? PackagePaths.root.appendingPathComponent(word).path : word
        }
        let run = try PackagePaths.run(Array(arguments))
        #expect(run.code == 0, "\(run.stderr)")
        #expect(Self.matches(run.stdout + run.stderr, shown: example.output), "\(run.stdout)\(run.stderr)")
    }

    /// The gateway configuration of "3. Configure", with its files in a directory of its own: the
    /// check fails while the password file is missing, as `run` would, and then prints README's line.
    @Test func theConfigurationReadmeGivesPassesCheckConfigOnceItsPasswordFileExists() throws {
        let block = try #require(
            Self.blocks.first { $0.language == "yaml" && $0.lines.contains { $0.contains("password_file:") } })
        let example = try #require(Self.examples.first { Self.words($0.command).dropFirst().first == "check-config" })
        let directory = NSTemporaryDirectory() + "b2m-readme-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let yaml = block.lines.joined(separator: "\n").replacingOccurrences(of: "/etc/beacon2mqtt", with: directory)
        let config = directory + "/beacon2mqtt.yaml"
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        // README's user is the package's; as root the files are read as root here, else as the caller.
        var arguments = Array(Self.words(example.command).dropFirst())
        if let option = arguments.firstIndex(of: "--as-user") {
            if geteuid() == 0 {
                arguments[option + 1] = "root"
            } else {
                arguments.removeSubrange(option...(option + 1))
            }
        }
        arguments.append(config)

        let missing = try PackagePaths.run(arguments)
        #expect(missing.code == 78, "\(missing.stdout)\(missing.stderr)")
        #expect(
            missing.stderr.contains("mqtt.password_file: cannot read '\(directory)/mqtt-password'"), "\(missing.stderr)"
        )

        let password = directory + "/mqtt-password"
        try "s3cr3t\n".write(toFile: password, atomically: true, encoding: .utf8)
        chmod(password, 0o640)
        let run = try PackagePaths.run(arguments)
        #expect(run.code == 0, "\(run.stderr)")
        let shown = example.output.map { $0.replacingOccurrences(of: "/etc/beacon2mqtt", with: directory) }
        #expect(Self.matches(run.stdout + run.stderr, shown: shown), "\(run.stdout)\(run.stderr)")
    }

    /// README's example of a mistake is the line `check-config` prints for it.
    @Test func theMistakeReadmeShowsIsTheLineCheckConfigPrints() throws {
        let regex = try NSRegularExpression(
            pattern: "`(/etc/beacon2mqtt/beacon2mqtt\\.yaml):([0-9]+):([0-9]+): mqtt\\.([a-z_]+): ([^`]+)`")
        let match = try #require(
            regex.firstMatch(in: Self.readme, range: NSRange(Self.readme.startIndex..., in: Self.readme)))
        let group = { (i: Int) in String(Self.readme[Range(match.range(at: i), in: Self.readme)!]) }
        let (line, column, key, message) = (Int(group(2))!, Int(group(3))!, group(4), group(5))
        // A file with README's misspelt key where README says it is.
        let lines =
            ["mqtt:"] + Array(repeating: "  host: broker.lan", count: line - 2) + [
                String(repeating: " ", count: column - 1) + key + ": 1883"
            ]
        let path = NSTemporaryDirectory() + "b2m-readme-\(UUID().uuidString).yaml"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try PackagePaths.run(["check-config", path])
        #expect(run.code == 78)
        #expect(run.stderr == "\(path):\(line):\(column): mqtt.\(key): \(message)\n", "\(run.stderr)")
    }

    /// Every `beacon2mqtt` line of README's command blocks parses: the command and its options exist.
    @Test func everyCommandLineParses() throws {
        let lines = Self.blocks.filter { ["sh", "console"].contains($0.language) }.flatMap(\.lines)
            .map { $0.hasPrefix("$ ") ? String($0.dropFirst(2)) : $0 }
            .map(Self.words).filter { $0.first == "beacon2mqtt" }
        #expect(lines.count >= 6)
        for words in lines {
            let command = try #require(CommandLineTool.find(words[1]), "\(words)")
            var arguments = Arguments(Array(words.dropFirst(2)))
            #expect(throws: Never.self, "\(words)") { _ = try command.init(&arguments) }
        }
    }

    /// README's install without the package builds what the package ships (the Swift runtime
    /// linked in), never the debug build, which needs the toolchain's runtime where it runs.
    @Test func theInstallWithoutThePackageUsesThePackagesBuild() throws {
        let script = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("scripts/build-deb.sh"), encoding: .utf8)
        let flags = "swift build -c release --static-swift-stdlib"
        let section = try #require(Self.readme.range(of: "Without the package:")).lowerBound
        let rest = Self.readme[section...]
        let paragraph = rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)]
        #expect(script.contains("\(flags) --product beacon2mqtt"))
        #expect(paragraph.contains("`\(flags) --product beacon2mqtt`"), "\(paragraph)")
        #expect(paragraph.contains("\"$(\(flags) --show-bin-path)/beacon2mqtt\""), "\(paragraph)")
        #expect(!paragraph.contains(".build/debug"), "\(paragraph)")
    }

    /// Every `make` target README names is one the Makefile has.
    @Test func everyMakeTargetExists() throws {
        let makefile = try String(contentsOf: PackagePaths.root.appendingPathComponent("Makefile"), encoding: .utf8)
        // Rule lines: `name [name …]:` at the start of a line (not `:=`, not a recipe or a comment).
        let rule = try NSRegularExpression(pattern: "^([a-z][a-z -]*):(?!=)", options: .anchorsMatchLines)
        let targets = Set(
            rule.matches(in: makefile, range: NSRange(makefile.startIndex..., in: makefile))
                .flatMap { makefile[Range($0.range(at: 1), in: makefile)!].split(separator: " ").map(String.init) })
        let regex = try NSRegularExpression(pattern: "\\bmake ([a-z][a-z-]*)")
        let named = regex.matches(in: Self.readme, range: NSRange(Self.readme.startIndex..., in: Self.readme))
            .map { String(Self.readme[Range($0.range(at: 1), in: Self.readme)!]) }
        #expect(Set(named).isSuperset(of: ["demo", "test", "deb", "test-deb"]), "\(named)")
        for target in Set(named) { #expect(targets.contains(target), "README names make \(target)") }
    }
}
