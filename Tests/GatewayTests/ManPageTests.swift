import Foundation
import Testing

@testable import Gateway

@Suite struct ManPageTests {
    static let page = ManPage.render(date: "2026-01-02")

    /// Renders roff through groff's man macros, as man(1) does; `-ww` turns on every warning.
    static func groff(_ roff: String, _ arguments: [String]) throws -> (output: String, errors: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(roff.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self), process.terminationStatus)
    }

    static var hasGroff: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") }

    @Test(.enabled(if: hasGroff)) func groffRendersThePageWithoutWarnings() throws {
        let result = try Self.groff(Self.page, ["-man", "-ww", "-z"])
        #expect(result.status == 0)
        #expect(result.errors.isEmpty, "\(result.errors)")
    }

    @Test(.enabled(if: hasGroff)) func everySubcommandAndOptionAppearsAsTheCLIPrintsIt() throws {
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
        #expect(flat.contains("EXIT STATUS"))
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
