import Foundation
import MetricsTransport
import Testing

@testable import IntegrationSupport

/// The endpoint's live map (`metrics.map`) over real sockets: off, its paths are not found; with a
/// password file, no or wrong credentials get 401; the event stream sends each new map and is
/// limited; with a certificate, only HTTPS, which curl takes with the test's CA.
@Suite(.serialized) struct MapEndpointTests {
    static let good = "Basic " + Data("alice:s3cret".utf8).base64EncodedString()
    static let wrong = "Basic " + Data("alice:guess".utf8).base64EncodedString()

    static func server(map: MapAccess?, tls: TLSIdentity? = nil) throws -> (MetricsServer, MetricsBoard, Int) {
        let board = MetricsBoard(version: "test")
        let port = try MosquittoBroker.freePort()
        let server = try MetricsServer(board: board, address: "127.0.0.1", port: port, map: map, tls: tls)
        return (server, board, port)
    }

    static func get(_ port: Int, _ path: String, authorization: String? = nil) -> HTTPProbe.Answer {
        let header = authorization.map { "Authorization: \($0)\r\n" } ?? ""
        return HTTPProbe.exchange(
            port: port, Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(header)Connection: close\r\n\r\n".utf8))
    }

    @Test func offTheMapIsNotFoundAndMetricsStillAnswer() throws {
        let (server, _, port) = try Self.server(map: nil)
        defer { server.stop() }
        for path in ["/map", "/map.json", "/map/events"] {
            #expect(Self.get(port, path).status == 404, "\(path)")
        }
        #expect(Self.get(port, "/metrics").status == 200)
    }

    @Test func withAPasswordFileEveryMapPathAsksForCredentials() throws {
        let (server, board, port) = try Self.server(map: MapAccess(authorizations: [Self.good]))
        defer { server.stop() }
        board.publish(map: #"{"beacons":[]}"#)
        for path in ["/map", "/map.json", "/map/events"] {
            let none = Self.get(port, path)
            #expect(none.status == 401, "\(path)")
            #expect(none.head.contains("WWW-Authenticate: Basic realm=\"beacon2mqtt map\""), "\(none.head)")
            #expect(Self.get(port, path, authorization: Self.wrong).status == 401, "\(path)")
            #expect(Self.get(port, path, authorization: "Basic").status == 401, "\(path)")
        }
        let page = Self.get(port, "/map", authorization: Self.good)
        #expect(page.status == 200 && page.head.contains("text/html") && page.body.contains("<svg"))
        #expect(page.head.contains("Cache-Control: no-store"))
        let json = Self.get(port, "/map.json", authorization: Self.good)
        #expect(json.status == 200 && json.body == #"{"beacons":[]}"#)
        // Prometheus is not asked for a password.
        #expect(Self.get(port, "/metrics").status == 200)
    }

    @Test func thePageIsSelfContained() throws {
        let (server, _, port) = try Self.server(map: MapAccess())
        defer { server.stop() }
        let page = Self.get(port, "/map").body
        #expect(page.contains("new EventSource(\"map/events\")") && page.contains("<select id=\"floor\">"))
        // No external asset: nothing loaded from another address.
        for reference in ["src=\"http", "href=\"http", "@import", "url(http", "<link"] {
            #expect(!page.contains(reference), "\(reference)")
        }
    }

    @Test func beforeTheLocatorPublishesTheMapIsNotReady() throws {
        let (server, _, port) = try Self.server(map: MapAccess())
        defer { server.stop() }
        #expect(Self.get(port, "/map.json").status == 503)
    }

    /// Reads a stream until `count` `map` events came (or `timeout`), returning their data lines;
    /// none when it ends first (a 503).
    static func events(_ fd: Int32, count: Int, timeout: Double = 10) -> [String] {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let found = text.components(separatedBy: "event: map\ndata: ").dropFirst()
            if found.count >= count, found.last!.contains("\n\n") {
                return found.map { String($0.prefix { $0 != "\n" }) }
            }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            text += String(decoding: buffer[0..<n], as: UTF8.self)
        }
        return []
    }

    static func openStream(_ port: Int) throws -> Int32 {
        let fd = try #require(HTTPProbe.connect(port: port))
        let request = Array("GET /map/events HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    @Test func theStreamSendsEachNewMapAndIsLimited() throws {
        let (server, board, port) = try Self.server(map: MapAccess(streams: 2))
        defer { server.stop() }
        board.publish(map: #"{"n":1}"#)
        // Closed once, here or at the end: a second close would close whatever the process opened
        // with that number since (another test's socket, or the server's own connection).
        var first = try Self.openStream(port)
        defer { if first >= 0 { close(first) } }
        #expect(Self.events(first, count: 1) == [#"{"n":1}"#])
        let second = try Self.openStream(port)
        defer { close(second) }
        board.publish(map: #"{"n":2}"#)
        #expect(Self.events(second, count: 1) == [#"{"n":2}"#])
        // Every place is taken: a third stream is refused, and /metrics still answers at once.
        #expect(Self.get(port, "/map/events").status == 503)
        #expect(Self.get(port, "/metrics").status == 200)
        // A closed stream gives its place back once the server next writes to it (within a keep-alive).
        close(first)
        first = -1
        var reopened: Int32 = -1
        defer { if reopened >= 0 { close(reopened) } }
        #expect(
            waitUntil(timeout: 8) {
                if reopened >= 0 { close(reopened) }
                reopened = (try? Self.openStream(port)) ?? -1
                return reopened >= 0 && Self.events(reopened, count: 1) == [#"{"n":2}"#]
            })
    }

    /// A stop ends the open streams within a poll, so the library can join their threads, and a
    /// HEAD of the stream answers its head without waiting for news.
    @Test func aStopEndsTheStreamsAndAHeadDoesNotWait() throws {
        let (server, board, port) = try Self.server(map: MapAccess())
        board.publish(map: #"{"n":1}"#)
        let head = HTTPProbe.exchange(
            port: port, Array("HEAD /map/events HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8),
            timeout: 5)
        #expect(head.status == 200 && head.head.contains("text/event-stream"), "\(head)")
        let stream = try Self.openStream(port)
        defer { close(stream) }
        #expect(Self.events(stream, count: 1) == [#"{"n":1}"#])
        let started = Date()
        server.stop()
        #expect(Date().timeIntervalSince(started) < 2)
        // The stream was ended: the socket reads to its end.
        var buffer = [UInt8](repeating: 0, count: 256)
        var n = 1
        while n > 0 { n = buffer.withUnsafeMutableBytes { recv(stream, $0.baseAddress, $0.count, 0) } }
        #expect(n == 0)
    }

    @Test func withACertificateItSpeaksHTTPSOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("map-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pki = try TestCertificates(in: directory)
        let identity = TLSIdentity(
            certificate: try String(contentsOfFile: pki.serverCert, encoding: .utf8),
            key: try String(contentsOfFile: pki.serverKey, encoding: .utf8))
        let (server, board, port) = try Self.server(map: MapAccess(authorizations: [Self.good]), tls: identity)
        defer { server.stop() }
        board.publish(map: #"{"beacons":[]}"#)
        func curl(_ arguments: [String]) -> (status: Int32, output: String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            p.arguments = ["-sS", "--max-time", "10"] + arguments
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try? p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let url = "https://localhost:\(port)/map.json"
        let ok = curl(["--cacert", pki.caFile, "-u", "alice:s3cret", url])
        #expect(ok.status == 0 && ok.output == #"{"beacons":[]}"#, "\(ok.output)")
        let refused = curl(["--cacert", pki.caFile, "-u", "alice:guess", "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(refused.output == "401", "\(refused.output)")
        // The event stream goes through TLS too (curl stops reading it after 2 s).
        let stream = curl([
            "--cacert", pki.caFile, "-u", "alice:s3cret", "-N", "--max-time", "2",
            "https://localhost:\(port)/map/events",
        ])
        #expect(stream.output.hasPrefix("event: map\ndata: {\"beacons\":[]}\n\n"), "\(stream.output)")
        // The certificate is checked: another CA does not vouch for it.
        #expect(curl(["--cacert", pki.otherCAFile, url]).status != 0)
        // Plain HTTP gets no answer.
        #expect(Self.get(port, "/metrics").status == nil)
    }
}
