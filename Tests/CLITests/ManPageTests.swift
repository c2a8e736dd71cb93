import Foundation
import Testing

@testable import BeaconConfig
@testable import CLI
@testable import IntegrationSupport
@testable import Platform
@testable import Runtime

@Suite struct ManPageTests {
    static let page = ManPage.render(date: "2026-01-02")
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Renders roff through groff's man macros, as man(1) does; `-ww` turns on every warning.
    static func groff(_ roff: String, _ arguments: [String]) throws -> (output: String, errors: String, status: Int32) {
        try pipe(roff, "/usr/bin/groff", arguments, environment: nil)
    }

    static func pipe(
        _ input: String, _ program: String, _ arguments: [String], environment: [String: String]?
    ) throws
        -> (output: String, errors: String, status: Int32)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdin = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self), process.terminationStatus)
    }

    static var hasGroff: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") }
    static var hasMan: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/man") }

    /// The roff source of one `.SH` section, up to the next one.
    static func section(_ name: String) throws -> String {
        let start = try #require(page.range(of: ".SH \(name)\n"), "no .SH \(name)")
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)])
    }

    /// The rows of the Markdown table under `header` in docs/`file`, each cell without its Markdown
    /// (backticks, bold, links), as the man page spells it.
    static func docsTable(_ file: String, header: String) throws -> [[String]] {
        let text = try String(contentsOf: repo.appendingPathComponent("docs/\(file)"), encoding: .utf8)
        let start = try #require(text.range(of: header + "\n"), "\(file) has no table \(header)")
        var rows: [[String]] = []
        for line in text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            guard line.hasPrefix("|") else { break }
            rows.append(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map(plain))
        }
        return rows
    }

    static func plain(_ markdown: Substring) -> String {
        markdown.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.output.1) }
            .replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    @Test(.enabled(if: hasGroff, "needs groff")) func groffRendersThePageWithoutWarnings() throws {
        let result = try Self.groff(Self.page, ["-man", "-ww", "-z"])
        #expect(result.status == 0)
        #expect(result.errors.isEmpty, "\(result.errors)")
    }

    @Test(.enabled(if: hasMan, "needs man")) func manRendersThePage() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("beacon2mqtt-\(getpid()).1")
        try Self.page.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = ["PATH": "/usr/bin:/bin", "MANPAGER": "cat", "MANWIDTH": "80", "LANG": "C.UTF-8"]
        let result = try Self.pipe("", "/usr/bin/man", ["-l", file.path], environment: environment)
        #expect(result.status == 0, "\(result.errors)")
        for name in ["CONFIGURATION", "TOPICS", "SIGNALS", "FILES", "EXIT STATUS"] {
            #expect(result.output.contains("\n\(name)\n"), "\(name)")
        }
    }

    @Test(.enabled(if: hasGroff, "needs groff")) func everySubcommandAndOptionAppearsAsTheCLIPrintsIt() throws {
        // Render to plain text, then compare with the help the CLI itself prints.
        let text = try Self.groff(Self.page, ["-man", "-Tascii", "-P", "-cbou"]).output
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("beacon2mqtt - Turns the Bluetooth LE beacons"))
        for name in CommandLineTool.commands.map({ $0.help.name }) {
            let help = CapturedRun(["help", name]).stdout
            let abstract = try #require(help.split(separator: "\n").first?.dropFirst("OVERVIEW: ".count))
            #expect(flat.contains(abstract.split(separator: " ").joined(separator: " ")), "\(name): \(abstract)")
            for line in help.split(separator: "\n") where line.hasPrefix("  -") && !line.contains("--help") {
                let option = line.split(separator: " ").first.map(String.init) ?? ""
                #expect(flat.contains(option), "\(name): \(option)")
            }
        }
        #expect(flat.contains("--version"))
    }

    @Test func everySectionIsPresentInOrder() throws {
        let names = [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "CONFIGURATION", "TOPICS", "SIGNALS", "FILES",
            "EXIT STATUS", "SEE ALSO",
        ]
        let found = Self.page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { String($0.dropFirst(4)) }
        #expect(found == names)
    }

    /// Lines man fills: neither requests nor comments.
    static var textLines: [(index: Int, line: Substring)] {
        Self.page.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { !$0.element.hasPrefix(".") && !$0.element.isEmpty }.map { ($0.offset, $0.element) }
    }

    @Test func noSourceLineBreaksASentenceOrAWord() {
        let lines = Self.page.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in Self.textLines {
            // A word split with a hyphen at the end of a line (a lone `-` argument is fine).
            let beforeHyphen = line.hasSuffix("\\-") ? line.dropLast(2) : line.hasSuffix("-") ? line.dropLast() : nil
            #expect(!(beforeHyphen?.last?.isLetter ?? false), "line \(index + 1) ends mid-word: \(line)")
            // Two text lines in a row are one filled paragraph: the first must end a sentence or clause.
            guard index + 1 < lines.count, !lines[index + 1].hasPrefix("."), !lines[index + 1].isEmpty else { continue }
            let end = line.trimmingCharacters(in: CharacterSet(charactersIn: ")\"'`"))
            #expect(".;:?!".contains { end.hasSuffix(String($0)) }, "line \(index + 1) breaks mid-sentence: \(line)")
        }
        // Line breaks only where the synopsis lists its two forms.
        #expect(Self.page.components(separatedBy: "\n.br\n").count == 2)
    }

    @Test(.enabled(if: hasGroff, "needs groff")) func eachHelpParagraphRendersAsOneFilledLine() throws {
        // At a very long line length every paragraph fits on one output line, unless the source breaks it.
        let text = try Self.groff(Self.page, ["-man", "-Tutf8", "-rLL=4000n", "-P", "-cbou"]).output
        func words(_ s: some StringProtocol) -> String {
            String(s.map { $0.isLetter || $0.isNumber ? $0 : " " }).split(separator: " ").joined(separator: " ")
        }
        let lines = text.split(separator: "\n").map(words)
        var checked = 0
        for help in CommandLineTool.commands.map({ $0.help }) {
            for paragraph in (help.discussion ?? "").components(separatedBy: "\n\n") where !paragraph.isEmpty {
                let expected = words(paragraph)
                #expect(lines.contains { $0.contains(expected) }, "\(help.name): \(paragraph)")
                checked += 1
            }
        }
        #expect(checked >= 5)
    }

    @Test func exitStatusListsEveryExitCodeAsDocsServiceMdDoes() throws {
        let rows = try Self.docsTable("service.md", header: "| code | name | meaning |")
        let codes = (0...255).compactMap { ExitCode(rawValue: $0) }
        #expect(rows.map { $0[0] } == codes.map { String($0.rawValue) })
        for row in rows {
            let code = try #require(Int32(row[0]).flatMap(ExitCode.init(rawValue:)))
            let documented = ManPage.exitStatus(code)
            #expect([documented.name, documented.meaning] == Array(row.dropFirst()), "exit \(row[0])")
        }
        let section = try Self.section("EXIT STATUS")
        for code in codes {
            #expect(section.contains(".TP\n.B \(code.rawValue)\n"), "exit \(code.rawValue) is not in EXIT STATUS")
        }
    }

    /// Every key the loader accepts (ConfigKeys, which ExampleFileTests ties to etc/beacon2mqtt.yaml),
    /// without the section keys themselves.
    static var configurationKeys: [String] {
        let sections = Set(ConfigKeys.sections.keys.map { $0.hasSuffix("[]") ? String($0.dropLast(2)) : $0 })
        return ConfigKeys.allPaths.filter { !sections.contains($0) }
    }

    @Test func configurationListsEveryKeyAsDocsConfigurationMdDoes() throws {
        let keys = Self.configurationKeys
        #expect(keys.count > 80)
        #expect(Set(ManPage.settings.map(\.key)) == Set(keys))
        #expect(ManPage.settings.count == keys.count, "a key is listed twice")
        // Section rows (**gateway**, **regions** (list)) have no type; every other row is a key.
        let rows = try Self.docsTable("configuration.md", header: "| Key | Type | Default | Meaning |")
            .filter { !$0[1].isEmpty }
        #expect(rows.map { $0[0] } == ManPage.settings.map(\.key), "docs lists other keys or another order")
        for (row, setting) in zip(rows, ManPage.settings) {
            #expect(row == [setting.key, setting.type, setting.defaultValue, setting.meaning], "\(setting.key)")
        }
        let section = try Self.section("CONFIGURATION")
        for key in keys {
            #expect(section.contains(".TP\n.B \(ManPage.escape(key))\n"), "\(key) is not in CONFIGURATION")
        }
    }

    @Test func topicsListEveryTopicAsDocsTopicsMdDoes() throws {
        let rows = try Self.docsTable("topics.md", header: "| topic | payload | retained | QoS |")
        #expect(rows.count >= 10)
        #expect(rows == ManPage.topics.map { [$0.topic, $0.payload, $0.retained, $0.qos] })
        let section = try Self.section("TOPICS")
        for row in rows { #expect(section.contains(".B \(ManPage.escape(row[0]))\n"), "\(row[0])") }
        // The locator's and Home Assistant's topics, named in prose, are the ones their docs describe.
        let locator = try String(contentsOf: Self.repo.appendingPathComponent("docs/locator.md"), encoding: .utf8)
        for topic in ["<base>/<beacon>/location", "<base>/<beacon>/event", "<base>/locators/<gateway.id>/status"] {
            #expect(section.contains(ManPage.escape(topic)) && locator.contains(topic), "\(topic)")
        }
    }

    @Test func signalsAndFilesAreTheOnesDocsServiceMdNames() throws {
        let signals = try Self.docsTable("service.md", header: "| signal | effect |")
        #expect(signals == ManPage.signals.map { [$0.name, $0.text] })
        #expect(signals.map { $0[0] } == ["SIGTERM, SIGINT", "SIGHUP", "SIGKILL"])
        let signalSection = try Self.section("SIGNALS")
        for row in signals { #expect(signalSection.contains(".B \(row[0])\n"), "\(row[0])") }

        let files = try Self.docsTable("service.md", header: "| path | what |")
        #expect(files == ManPage.files.map { [$0.name, $0.text] })
        let fileSection = try Self.section("FILES")
        for row in files { #expect(fileSection.contains(".I \(ManPage.escape(row[0]))\n"), "\(row[0])") }
        // The package really installs them there; systemd makes the state directory.
        let buildDeb = try String(contentsOf: Self.repo.appendingPathComponent("scripts/build-deb.sh"), encoding: .utf8)
        let unit = try String(
            contentsOf: Self.repo.appendingPathComponent("packaging/systemd/beacon2mqtt.service"), encoding: .utf8)
        for path in files.map({ $0[0] }) {
            if path.hasPrefix("/var/lib/") {
                #expect(unit.contains("\nStateDirectory=\(path.dropFirst("/var/lib/".count))\n"), "\(path)")
            } else {
                #expect(buildDeb.contains("$stage\(path)"), "scripts/build-deb.sh does not install \(path)")
            }
        }
    }

    @Test func proseGoesOneSentenceOrClauseToALine() {
        let text = """
            Reads a file, e.g. 30s of it. Then stops; it exits 0.
            The next line (a wrap; not a break) joins.

            A new paragraph. .hidden
            """
        #expect(
            ManPage.prose(text)
                == "Reads a file, e.g. 30s of it.\nThen stops;\nit exits 0.\n"
                + "The next line (a wrap; not a break) joins.\n.PP\nA new paragraph. .hidden\n")
        #expect(ManPage.prose("Ends. .dot") == "Ends. .dot\n")
        #expect(ManPage.prose("One. 'Quoted' next.") == "One.\n\\&'Quoted' next.\n")
    }

    @Test func theHeaderCarriesNameSectionDateAndVersion() {
        let header = Self.page.split(separator: "\n").first { $0.hasPrefix(".TH ") }
        #expect(header == ".TH BEACON2MQTT 1 \"2026-01-02\" \"beacon2mqtt \(Version.string)\" \"User Commands\"")
    }

    @Test func textThatLooksLikeARequestOrHasHyphensIsEscaped() {
        #expect(ManPage.escape(".hidden") == "\\&.hidden")
        #expect(ManPage.escape("'quoted") == "\\&'quoted")
        #expect(ManPage.escape("--config a\\b") == "\\-\\-config a\\eb")
        #expect(ManPage.escape("OK — 2 m²") == "OK \\[u2014] 2 m\\[u00B2]")
    }

    @Test func theManpageCommandPrintsThePageWithAReproducibleDate() {
        let run = CapturedRun(["manpage"], environment: ["SOURCE_DATE_EPOCH": "86400"])
        #expect(run.code == .success)
        #expect(run.stdout.contains(".TH BEACON2MQTT 1 \"1970-01-02\""))
        let dated = CapturedRun(["manpage", "--date", "2025-12-31"])
        #expect(dated.stdout == ManPage.render(date: "2025-12-31"))
        #expect(CapturedRun(["manpage", "--date", "yesterday"]).code == .usage)
    }
}
