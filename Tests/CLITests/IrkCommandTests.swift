import BeaconCore
import BeaconWire
import Foundation
import Platform
import Testing

@testable import CLI
@testable import IntegrationSupport

/// `beacon2mqtt irk`: the Core Spec sample resolves, other addresses do not, and what `generate`
/// prints resolves to the key it printed.
@Suite struct IrkCommandTests {
    static let sampleKey = "ec0234a357c8ad05341010a60a397d9b"

    @Test func theSpecSampleResolves() {
        let run = CapturedRun(["irk", "resolve", "--irk", Self.sampleKey, "--address", "70:81:94:0d:fb:aa"])
        #expect(run.code == .success)
        #expect(run.stdout == "yes: 70:81:94:0d:fb:aa resolves to the key\n")
        // Home Assistant's base64 form of the same key.
        let base64 = CapturedRun([
            "irk", "resolve", "--irk", "m305CqYQEDQFrchXozQC7A==", "--address", "70:81:94:0d:fb:aa",
        ])
        #expect(base64.code == .success)
    }

    @Test func anotherAddressDoesNotResolve() {
        let run = CapturedRun(["irk", "resolve", "--irk", Self.sampleKey, "--address", "70:81:94:0d:fb:ab"])
        #expect(run.code == .failure)
        #expect(run.stdout == "no: 70:81:94:0d:fb:ab does not resolve to the key\n")
        let notPrivate = CapturedRun(["irk", "resolve", "--irk", Self.sampleKey, "--address", "c0:81:94:0d:fb:aa"])
        #expect(notPrivate.code == .failure)
        #expect(notPrivate.stdout.hasPrefix("no: c0:81:94:0d:fb:aa is not a resolvable private address"))
    }

    @Test func generatedKeysAndAddressesRoundTrip() throws {
        for _ in 0..<20 {
            let run = CapturedRun(["irk", "generate", "--count", "3"])
            #expect(run.code == .success)
            let lines = run.stdout.split(separator: "\n").map {
                $0.split(separator: " ", omittingEmptySubsequences: true)
            }
            #expect(lines.count == 5)
            #expect(lines.map { String($0[0]) } == ["irk", "base64", "address", "address", "address"])
            let hex = String(lines[0][1])
            let base64 = String(lines[1][1])
            #expect(IdentityResolvingKey(text: hex) == IdentityResolvingKey(text: base64))
            for line in lines[2...] {
                let address = String(line[1])
                #expect(CapturedRun(["irk", "resolve", "--irk", hex, "--address", address]).code == .success)
                #expect(CapturedRun(["irk", "resolve", "--irk", base64, "--address", address]).code == .success)
                // …and not to the spec's key.
                #expect(
                    CapturedRun(["irk", "resolve", "--irk", Self.sampleKey, "--address", address]).code == .failure)
            }
        }
    }

    @Test func generateWithAKeyPrintsOnlyAddressesForIt() {
        let run = CapturedRun(["irk", "generate", "--irk", Self.sampleKey, "--count", "4"])
        #expect(run.code == .success)
        let addresses = run.stdout.split(separator: "\n")
        #expect(addresses.count == 4)
        for line in addresses {
            #expect(line.hasPrefix("address  "))
            let address = String(line.dropFirst("address  ".count))
            #expect(CapturedRun(["irk", "resolve", "--irk", Self.sampleKey, "--address", address]).code == .success)
        }
    }

    @Test func theKeyCanComeFromAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("irk-\(UUID().uuidString)")
        try "irk:\(Self.sampleKey)\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = CapturedRun(["irk", "resolve", "--irk-file", file.path, "--address", "70:81:94:0d:fb:aa"])
        #expect(run.code == .success)
        try "not a key\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = CapturedRun(["irk", "resolve", "--irk-file", file.path, "--address", "70:81:94:0d:fb:aa"])
        #expect(bad.code == .dataError)
        #expect(!bad.stderr.contains("not a key"))
        let missing = CapturedRun([
            "irk", "resolve", "--irk-file", file.path + ".absent", "--address", "70:81:94:0d:fb:aa",
        ])
        #expect(missing.code == .noInput)
    }

    @Test func badArgumentsAreUsageErrors() {
        for arguments in [
            ["irk"], ["irk", "resolve", "--address", "70:81:94:0d:fb:aa"], ["irk", "resolve", "--irk", Self.sampleKey],
            ["irk", "resolve", "--irk", "abc", "--address", "70:81:94:0d:fb:aa"],
            ["irk", "resolve", "--irk", Self.sampleKey, "--address", "70:81:94"], ["irk", "generate", "--count", "0"],
            ["irk", "explode"],
        ] {
            #expect(CapturedRun(arguments).code == .usage, "\(arguments)")
        }
    }
}

/// A device's irk_file is a secret like the password file: world-readable, it is warned about.
@Suite struct IrkFilePermissionTests {
    @Test func aWorldReadableIrkFileIsWarnedAboutNeverQuoted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("irk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let key = dir.appendingPathComponent("phone.irk")
        try "ec0234a357c8ad05341010a60a397d9b\n".write(to: key, atomically: true, encoding: .utf8)
        let config = dir.appendingPathComponent("b.yaml")
        try "devices:\n  - name: phone\n    irk_file: \(key.path)\n".write(
            to: config, atomically: true, encoding: .utf8)

        chmod(key.path, 0o644)
        let open = CapturedRun(["check-config", config.path])
        #expect(open.code == .success)
        #expect(open.stderr.contains("world-readable") && open.stderr.contains(key.path), "\(open.stderr)")
        #expect(!open.stderr.contains("ec0234") && !open.stdout.contains("ec0234"))

        chmod(key.path, 0o600)
        let closed = CapturedRun(["check-config", config.path])
        #expect(closed.code == .success)
        #expect(!closed.stderr.contains("world-readable"), "\(closed.stderr)")
    }
}
