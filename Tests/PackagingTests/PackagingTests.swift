import CLI
import Foundation
import Testing

@testable import IntegrationSupport
@testable import Runtime

/// The systemd unit, the Debian metadata and maintainer scripts, and an install into a fresh
/// Debian root (Tests/packaging/install-test.sh). Serialized: two tests that found no .build/deb
/// would both run scripts/build-deb.sh, and one copied a package the other was still writing.
@Suite(.serialized) struct PackagingTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let unitPath = repo.appendingPathComponent("packaging/systemd/beacon2mqtt.service").path

    struct Result {
        var status: Int32
        var output: String
    }

    /// Runs a program, merging stdout and stderr.
    static func run(_ executable: String, _ arguments: [String], cwd: URL = repo) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = cwd
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// `key=value` lines of the unit's [Service] etc. sections (later assignments win, like systemd).
    static func directives() throws -> [String: String] {
        let text = try String(contentsOfFile: unitPath, encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("[") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            out[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return out
    }

    static var hasSystemdAnalyze: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") }

    /// `systemd-analyze verify` on a temporary copy whose commands point at the freshly built
    /// binary, since /usr/bin/beacon2mqtt is not installed here. verify exits 0 even for unknown
    /// keys or bad values (it logs them), so any output is a failure too.
    static func verify(_ unit: String) throws -> Result {
        let built = repo.appendingPathComponent(".build/debug/beacon2mqtt").path
        let binary = FileManager.default.isExecutableFile(atPath: built) ? built : "/bin/true"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("b2m-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("beacon2mqtt.service")
        try unit.replacingOccurrences(of: "/usr/bin/beacon2mqtt", with: binary).write(
            to: copy, atomically: true, encoding: .utf8)
        // --man=no: the Documentation= man page is only installed by the package.
        return try run("/usr/bin/systemd-analyze", ["verify", "--man=no", copy.path])
    }

    @Test(.enabled(if: hasSystemdAnalyze, "needs systemd-analyze")) func systemdAnalyzeVerifyAcceptsTheUnit() throws {
        let result = try Self.verify(try String(contentsOfFile: Self.unitPath, encoding: .utf8))
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test(.enabled(if: hasSystemdAnalyze, "needs systemd-analyze")) func theVerifyCheckCatchesATypoAndABadValue() throws
    {
        let unit = try String(contentsOfFile: Self.unitPath, encoding: .utf8)
        let typo = try Self.verify(unit.replacingOccurrences(of: "NoNewPrivileges=", with: "NoNewPrivilege="))
        #expect(!(typo.status == 0 && typo.output.isEmpty))
        let value = try Self.verify(unit.replacingOccurrences(of: "ProtectSystem=strict", with: "ProtectSystem=very"))
        #expect(!(value.status == 0 && value.output.isEmpty))
    }

    @Test func theUnitIsANotifyServiceWithWatchdogAndLeastPrivilege() throws {
        let d = try Self.directives()
        let expected: [String: String] = [
            "Type": "notify", "NotifyAccess": "main", "Restart": "on-failure", "User": "beacon2mqtt",
            "AmbientCapabilities": "CAP_NET_RAW CAP_NET_ADMIN", "CapabilityBoundingSet": "CAP_NET_RAW CAP_NET_ADMIN",
            "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
            "RestrictAddressFamilies": "AF_BLUETOOTH AF_UNIX AF_INET AF_INET6", "ExecReload": "/bin/kill -HUP $MAINPID",
            "ConfigurationDirectory": "beacon2mqtt", "StateDirectory": "beacon2mqtt",
            "After": "bluetooth.target network-online.target time-sync.target",
        ]
        for (key, value) in expected { #expect(d[key] == value, "\(key)") }
        #expect(d["WatchdogSec"].map { !$0.isEmpty && $0 != "0" } == true)
        #expect(
            d["ExecStart"]?.hasPrefix("/usr/bin/beacon2mqtt run --config /etc/beacon2mqtt/beacon2mqtt.yaml") == true)
    }

    @Test func maintainerScriptsParseAndNeverStartTheServiceOnInstall() throws {
        for script in ["postinst", "prerm", "postrm"] {
            let path = Self.repo.appendingPathComponent("packaging/debian/\(script)").path
            #expect(try Self.run("/bin/sh", ["-n", path]).status == 0, "\(script)")
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(script)")
            let code = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
                .filter { !$0.drop { $0 == " " }.hasPrefix("#") }
            #expect(!code.contains { $0.contains("invoke start") || $0.contains("systemctl start") }, "\(script)")
        }
        let postinst = try String(
            contentsOfFile: Self.repo.appendingPathComponent("packaging/debian/postinst").path, encoding: .utf8)
        #expect(postinst.contains("adduser --system"))
        let postrm = try String(
            contentsOfFile: Self.repo.appendingPathComponent("packaging/debian/postrm").path, encoding: .utf8)
        #expect(postrm.contains("deluser --system") && postrm.contains("rm -rf /var/lib/beacon2mqtt"))
    }

    /// libmicrohttpd (and the GnuTLS it brings) is loaded only when `metrics.listen` starts an
    /// endpoint, so a gateway without metrics never pays its 2.4 MiB; the package still depends on it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf"), "needs readelf"))
    func theAgentLoadsLibmicrohttpdOnlyForMetrics() throws {
        let binary = Self.repo.appendingPathComponent(".build/debug/beacon2mqtt").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build beacon2mqtt first")
        let dynamic = try Self.run("/usr/bin/readelf", ["-d", binary])
        #expect(dynamic.status == 0)
        let needed = dynamic.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libmosquitto") }, "readelf's output changed: \(dynamic.output)")
        #expect(!needed.contains { $0.contains("libmicrohttpd") || $0.contains("libgnutls") }, "\(needed)")
        let buildDeb = try String(
            contentsOfFile: Self.repo.appendingPathComponent("scripts/build-deb.sh").path, encoding: .utf8)
        #expect(buildDeb.contains("depends=\"adduser, libmicrohttpd12, $depends\""))
    }

    @Test func copyrightIsMachineReadableAndNamesTheGPLLinkage() throws {
        let text = try String(
            contentsOfFile: Self.repo.appendingPathComponent("packaging/debian/copyright").path, encoding: .utf8)
        #expect(text.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(text.contains("License: Expat"))  // the SPDX "MIT" under its DEP-5 name
        #expect(text.contains("GPL-2.0-or-later") && text.contains("libbluetooth"))
    }

    /// README's install section stays in step with the scripts (issue 34): the package's path and
    /// name as `make deb` writes them, every library the package depends on by name (the ones
    /// dpkg-shlibdeps finds for the release binary, and those build-deb.sh adds), and every package
    /// scripts/install-deps.sh installs.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf"), "needs readelf"))
    func readmeNamesThePackagePathItsDependenciesAndWhatInstallDepsInstalls() throws {
        let readme = try String(contentsOf: Self.repo.appendingPathComponent("README.md"), encoding: .utf8)
        let changelog = try String(
            contentsOf: Self.repo.appendingPathComponent("packaging/debian/changelog"), encoding: .utf8)
        let version = try #require(changelog.split(separator: "(").dropFirst().first?.split(separator: ")").first)
        let installLine = try #require(readme.split(separator: "\n").first { $0.hasPrefix("sudo apt install ") })
        #expect(installLine.contains("./.build/deb/beacon2mqtt_\(version)_"), "\(installLine)")
        // The Debian packages of the libraries the binary links directly (not glibc's).
        let needed = try Self.run("/usr/bin/readelf", ["-d", PackagePaths.binary]).output.split(separator: "\n")
            .compactMap { line in line.split(separator: "[").last?.split(separator: "]").first.map(String.init) }
        var linked: [String] = []
        for library in needed
        where !library.hasPrefix("libc.") && !library.hasPrefix("libm.") && !library.hasPrefix("ld-linux") {
            let owner = try Self.run("/usr/bin/dpkg", ["-S", "/usr/lib/x86_64-linux-gnu/\(library)"])
            guard owner.status == 0, let package = owner.output.split(separator: ":").first else { continue }
            linked.append(String(package))
        }
        #expect(linked.count == 4, "\(linked)")
        let buildDeb = try String(contentsOf: Self.repo.appendingPathComponent("scripts/build-deb.sh"), encoding: .utf8)
        let added = try #require(buildDeb.split(separator: "\n").first { $0.hasPrefix("depends=\"adduser, ") })
        #expect(added.contains("libmicrohttpd12"))
        for package in linked + ["libmicrohttpd12"] {
            #expect(installLine.contains(package), "README's install line does not name \(package)")
        }
        let script = try String(
            contentsOf: Self.repo.appendingPathComponent("scripts/install-deps.sh"), encoding: .utf8)
        let array = try #require(script.range(of: "pkgs=(")).upperBound
        let end = try #require(script[array...].range(of: "\"$@\")")).lowerBound
        let packages = script[array..<end].split(whereSeparator: \.isWhitespace)
        #expect(packages.count > 10)
        let paragraph = try #require(readme.range(of: "Both call `scripts/install-deps.sh`")).lowerBound
        let text = readme[paragraph...].prefix(800).replacingOccurrences(of: "\n", with: " ")
        for package in packages {
            #expect(text.contains(" \(package),") || text.contains(" \(package) "), "README does not list \(package)")
        }
        let lastLine = script.split(separator: "\n").last ?? ""
        #expect(!lastLine.hasPrefix("#"), "install-deps.sh ends with a comment: \(lastLine)")
    }

    @Test func theDebianChangelogMatchesTheCLIVersion() throws {
        let changelog = try String(
            contentsOfFile: Self.repo.appendingPathComponent("packaging/debian/changelog").path, encoding: .utf8)
        #expect(changelog.hasPrefix("beacon2mqtt (\(Version.string)-"))
    }

    /// Root and debootstrap (or an already cached root) are needed to build and chroot into Debian.
    /// The tests of the release build and the package (minutes of release build, and a Debian root
    /// from the mirror) run in `make test-deb`, which sets this, not in `make test`.
    static let packageTests = ProcessInfo.processInfo.environment["B2M_PACKAGE_TESTS"] == "1"

    static var canInstallIntoDebianRoot: Bool {
        getuid() == 0
            && (FileManager.default.isExecutableFile(atPath: "/usr/sbin/debootstrap")
                || ((try? FileManager.default.contentsOfDirectory(
                    atPath: repo.appendingPathComponent(".build/debroot").path))?
                    .contains {
                        FileManager.default.fileExists(
                            atPath: repo.appendingPathComponent(".build/debroot/\($0)/.complete").path)
                    }
                    ?? false))
    }

    /// The package `make deb` built (.build/deb), built first when there is none; its unstripped
    /// release binary stays in .build/deb-build.
    static func builtDeb() throws -> String? {
        let debDir = repo.appendingPathComponent(".build/deb")
        func findDeb() -> String? {
            (try? FileManager.default.contentsOfDirectory(atPath: debDir.path))?
                .first { $0.hasPrefix("beacon2mqtt_\(Version.string)-") && $0.hasSuffix(".deb") }
                .map { debDir.appendingPathComponent($0).path }
        }
        if findDeb() == nil {
            let build = try run(repo.appendingPathComponent("scripts/build-deb.sh").path, [])
            #expect(build.status == 0, "\(build.output)")
        }
        return findDeb()
    }

    /// The release link lays the functions of packaging/beacon2mqtt.order out in that order (one
    /// section per function, lld's --symbol-ordering-file), so a gateway's resident code is those
    /// pages together; and the list still names the binary's functions (it goes stale as code changes:
    /// scripts/order-functions.sh writes it again).
    @Test(
        .enabled(
            if: packageTests && getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/nm"),
            "the release build: make test-deb"))
    func theReleaseBinaryLaysOutItsHotFunctionsInTheListedOrder() throws {
        _ = try Self.builtDeb()
        let binary = Self.repo.appendingPathComponent(".build/deb-build/release/beacon2mqtt").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "scripts/build-deb.sh leaves it there")
        let listed = try String(
            contentsOfFile: Self.repo.appendingPathComponent("packaging/beacon2mqtt.order").path, encoding: .utf8
        ).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
        let symbols = try Self.run("/usr/bin/nm", ["--defined-only", binary])
        #expect(symbols.status == 0)
        var address: [String: UInt64] = [:]
        for line in symbols.output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, let value = UInt64(fields[0], radix: 16) { address[String(fields[2])] = value }
        }
        let placed = listed.compactMap { address[$0] }
        #expect(placed.count * 10 >= listed.count * 8, "\(placed.count) of \(listed.count) listed functions left")
        // Together: two thirds of them lie within 1 MiB (about 510 KiB at 462e852). The rest is what lies
        // inside the Swift runtime's shared sections, which cannot move (25-30 % of the list). Laid out
        // by the compiler, the densest two thirds of the same functions span about 4 MiB.
        let sorted = placed.sorted()
        let k = sorted.count * 2 / 3
        let span = k == 0 ? 0 : (0...(sorted.count - k)).map { sorted[$0 + k - 1] - sorted[$0] }.min() ?? 0
        #expect(k > 0 && span <= 1 << 20, "two thirds of the listed functions span \(span / 1024) KiB at the least")
    }

    /// The Swift runtime's C++ support comes from GCC's static archives (packaging/link): the shared
    /// libstdc++ cost a gateway 1 MiB resident in relocations and start-up for the little it uses.
    @Test(
        .enabled(
            if: packageTests && getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf"),
            "the release build: make test-deb"))
    func theReleaseBinaryLinksNoSharedCxxRuntime() throws {
        _ = try Self.builtDeb()
        let binary = Self.repo.appendingPathComponent(".build/deb-build/release/beacon2mqtt").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "scripts/build-deb.sh leaves it there")
        let dynamic = try Self.run("/usr/bin/readelf", ["-d", binary])
        let needed = dynamic.output.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libmosquitto") }, "readelf's output changed: \(dynamic.output)")
        #expect(!needed.contains { $0.contains("libstdc++") || $0.contains("libgcc_s") }, "\(needed)")
    }

    @Test(
        .enabled(
            if: packageTests && canInstallIntoDebianRoot,
            "a fresh Debian root (a 215 MB download, as root): make test-deb"))
    func theDebInstallsRunsAndPurgesInAFreshDebianRoot() throws {
        let deb = try #require(try Self.builtDeb())
        let result = try Self.run(Self.repo.appendingPathComponent("Tests/packaging/install-test.sh").path, [deb])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("install-test: PASS"))
    }
}
