import Foundation
import MetricsContract
import Synchronization
import Testing

@testable import IntegrationSupport

/// `metrics.listen` on a real `beacon2mqtt run` against a real mosquitto: the exposition a scrape
/// gets, `/healthz` through a broker outage, hostile HTTP clients, `locate`'s metrics, and the
/// errors (a bad address exits 78 naming the key, a taken port 69).
@Suite(.serialized) struct RunMetricsTests {
    /// A broker, a subscriber to every topic, and a simulating agent with /metrics on a free port.
    struct Running {
        let broker: MosquittoBroker
        let subscriber: TestSubscriber
        let workspace: Workspace
        let agent: ChildProcess
        let port: Int

        init(arguments: [String] = ["--simulate"]) throws {
            broker = try MosquittoBroker()
            subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#")
            port = try MosquittoBroker.freePort()
            workspace = try Workspace(
                port: broker.port,
                extra: """
                    metrics:
                      listen: 127.0.0.1:\(port)
                    regions:
                      - name: office
                        uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
                    """)
            agent = try workspace.start(arguments)
            let port = self.port
            #expect(waitUntil(timeout: 10) { MosquittoBroker.accepts(port: port) }, "\(workspace.logText)")
        }

        func metrics() -> String { HTTPProbe.get(port: port, "/metrics").body }
    }

    @Test func aScrapeShowsThePipelineTheBrokerAndTheProcess() throws {
        let running = try Running()
        defer { running.subscriber.stop() }
        // Reports count at once, a message as published only once the broker acknowledged it (and the
        // next snapshot, ≤ 100 ms later, carries it): wait for both.
        #expect(
            waitUntil(timeout: 10) {
                let text = running.metrics()
                return (HTTPProbe.sample(text, #"beacon2mqtt_reports_total{adapter="simulator"}"#) ?? 0) > 0
                    && (HTTPProbe.sample(text, #"beacon2mqtt_messages_published_total{lane="must_deliver"}"#) ?? 0) >= 1
            })
        let answer = HTTPProbe.get(port: running.port, "/metrics")
        #expect(answer.status == 200)
        #expect(answer.head.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8"))
        let text = answer.body
        #expect(HTTPProbe.sample(text, "beacon2mqtt_mqtt_connected") == 1)
        #expect(HTTPProbe.sample(text, #"beacon2mqtt_region_state{region="office"}"#) != nil)
        #expect((HTTPProbe.sample(text, #"beacon2mqtt_events_total{kind="enter"}"#) ?? 0) >= 1)
        #expect(
            (HTTPProbe.sample(text, #"beacon2mqtt_messages_published_total{lane="must_deliver"}"#) ?? 0) >= 1)
        #expect((HTTPProbe.sample(text, "beacon2mqtt_report_to_publish_seconds_count") ?? 0) >= 1)
        let rss = try #require(HTTPProbe.sample(text, "process_resident_memory_bytes"))
        #expect(rss > 1_000_000 && rss < 500_000_000)
        let start = try #require(HTTPProbe.sample(text, "process_start_time_seconds"))
        #expect(abs(start - Date().timeIntervalSince1970) < 600)
        #expect((HTTPProbe.sample(text, "process_open_fds") ?? 0) >= 3)
        #expect(HTTPProbe.get(port: running.port, "/healthz").status == 200)
        #expect(HTTPProbe.get(port: running.port, "/nothing").status == 404)
        let post = HTTPProbe.exchange(
            port: running.port, Array("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc".utf8))
        #expect(post.status == 405)
        running.agent.signal(SIGTERM)
        #expect(running.agent.wait(timeout: 10) == 0)
        #expect(!MosquittoBroker.accepts(port: running.port))
    }

    @Test func aBrokerOutageFlipsHealthzTo503AndBack() throws {
        let running = try Running()
        defer { running.subscriber.stop() }
        #expect(waitUntil(timeout: 10) { HTTPProbe.get(port: running.port, "/healthz").status == 200 })
        running.broker.stop()
        #expect(waitUntil(timeout: 10) { HTTPProbe.get(port: running.port, "/healthz").status == 503 })
        let down = HTTPProbe.get(port: running.port, "/healthz")
        #expect(down.body.contains("broker not connected"))
        #expect(HTTPProbe.sample(running.metrics(), "beacon2mqtt_mqtt_connected") == 0)
        try running.broker.start()
        #expect(waitUntil(timeout: 15) { HTTPProbe.get(port: running.port, "/healthz").status == 200 })
        #expect(waitUntil(timeout: 5) { HTTPProbe.sample(running.metrics(), "beacon2mqtt_mqtt_reconnects_total") == 1 })
    }

    /// Huge headers, garbage, a request that never ends and 200 connections at once are answered
    /// or closed; meanwhile the agent keeps publishing and a scrape afterwards works.
    @Test func hostileClientsAreAnsweredOrClosedAndThePipelineGoesOn() throws {
        let running = try Running(arguments: ["--simulate", "--beacons", "20"])
        defer { running.subscriber.stop() }
        let port = running.port
        #expect(waitUntil(timeout: 10) { running.subscriber.messages.count > 10 })

        let huge =
            "GET /metrics HTTP/1.1\r\nHost: x\r\nX-Filler: " + String(repeating: "a", count: 200_000) + "\r\n\r\n"
        let hugeAnswer = HTTPProbe.exchange(port: port, Array(huge.utf8))
        #expect(hugeAnswer.status.map { $0 >= 400 } ?? true, "\(hugeAnswer.head)")
        #expect(!hugeAnswer.body.contains("beacon2mqtt_reports_total"))

        let garbage = HTTPProbe.exchange(port: port, (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        #expect(garbage.status.map { $0 >= 400 } ?? true)

        // Slowloris: half a request line, then silence; the server closes it after its timeout.
        let slow = try #require(HTTPProbe.connect(port: port, timeout: 15))
        _ = Array("GET /metr".utf8).withUnsafeBytes { send(slow, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        let opened = Date()
        _ = HTTPProbe.read(slow)
        close(slow)
        #expect(Date().timeIntervalSince(opened) < 12)

        // 200 connections at once, each sending a request: every one is answered or closed.
        let outcomes = Mutex<[Int?]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            let answer = HTTPProbe.get(port: port, "/metrics", timeout: 15)
            outcomes.withLock { $0.append(answer.status) }
        }
        let statuses = outcomes.withLock { $0 }
        #expect(statuses.count == 200)
        #expect(statuses.contains(200))
        #expect(statuses.allSatisfy { $0 == nil || $0 == 200 || $0! >= 400 })

        // Still running, still delivering, still scraped.
        let before = running.subscriber.messages.count
        #expect(waitUntil(timeout: 10) { running.subscriber.messages.count > before + 5 })
        #expect(HTTPProbe.get(port: port, "/metrics").status == 200)
        running.agent.signal(SIGTERM)
        #expect(running.agent.wait(timeout: 10) == 0)
    }

    @Test func locateServesTheLocatorsMetrics() throws {
        let broker = try MosquittoBroker()
        let port = try MosquittoBroker.freePort()
        let workspace = try Workspace(
            port: broker.port, extra: "metrics:\n  listen: 127.0.0.1:1\n  locator_listen: 127.0.0.1:\(port)\n")
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log)
        #expect(
            waitUntil(timeout: 10) {
                HTTPProbe.sample(HTTPProbe.get(port: port, "/metrics").body, "beacon2mqtt_mqtt_connected") == 1
            }, "\(workspace.logText)")
        let text = HTTPProbe.get(port: port, "/metrics").body
        #expect(HTTPProbe.sample(text, "beacon2mqtt_locator_locations") == 0)
        #expect(HTTPProbe.sample(text, "beacon2mqtt_locator_changes_total") == 0)
        #expect(!text.contains("beacon2mqtt_reports_total"))
        #expect(HTTPProbe.get(port: port, "/healthz").status == 200)
        locator.signal(SIGTERM)
        #expect(locator.wait(timeout: 10) == 0)
    }

    /// `[::1]:port` serves over IPv6 only; `[::]:port` is dual-stack, so IPv4 clients get answers too.
    @Test func anIPv6AddressIsServedAndTheUnspecifiedOneTakesIPv4Too() throws {
        let broker = try MosquittoBroker()
        let port = try MosquittoBroker.freePort()
        let workspace = try Workspace(port: broker.port, extra: "metrics:\n  listen: '[::1]:\(port)'\n")
        let loopback = try workspace.start()
        #expect(
            waitUntil(timeout: 10) {
                (HTTPProbe.sample(
                    HTTPProbe.get(port: port, host: "::1", "/metrics").body,
                    "beacon2mqtt_reports_total{adapter=\"simulator\"}") ?? 0) > 0
            }, "\(workspace.logText)")
        #expect(HTTPProbe.get(port: port, host: "::1", "/healthz").status == 200)
        #expect(HTTPProbe.connect(port: port, host: "127.0.0.1").map { close($0) } == nil, "::1 is IPv6 only")
        #expect(workspace.logText.contains("[::1]:\(port)"))
        loopback.signal(SIGTERM)
        #expect(loopback.wait(timeout: 10) == 0)

        try workspace.write(port: broker.port, extra: "metrics:\n  listen: '[::]:\(port)'\n")
        let every = try workspace.start()
        #expect(waitUntil(timeout: 10) { HTTPProbe.get(port: port, host: "::1", "/healthz").status == 200 })
        #expect(HTTPProbe.get(port: port, host: "127.0.0.1", "/healthz").status == 200)
        every.signal(SIGTERM)
        #expect(every.wait(timeout: 10) == 0)

        try workspace.write(port: broker.port, extra: "metrics:\n  listen: '[::1:\(port)'\n")
        let bad = try workspace.start()
        #expect(bad.wait(timeout: 10) == 78)
        #expect(
            workspace.logText.contains(
                "beacon2mqtt.yaml:9:11: metrics.listen: an IPv6 address needs its port after the bracket"),
            "\(workspace.logText)")
    }

    /// README runs `run` and `locate` on one host with one file: locate serves on the next port
    /// (issue 34: both bound metrics.listen, and locate died with libmicrohttpd's raw line).
    @Test func runAndLocateWithOneConfigurationServeSidebySide() throws {
        let broker = try MosquittoBroker()
        let port = try MosquittoBroker.freePortPair()
        let workspace = try Workspace(port: broker.port, extra: "metrics:\n  listen: 127.0.0.1:\(port)\n")
        let agent = try workspace.start()
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log)
        #expect(
            waitUntil(timeout: 10) {
                HTTPProbe.sample(HTTPProbe.get(port: port + 1, "/metrics").body, "beacon2mqtt_locator_locations") != nil
                    && HTTPProbe.get(port: port, "/metrics").body.contains("beacon2mqtt_reports_total")
            }, "\(workspace.logText)")
        #expect(locator.isRunning && agent.isRunning, "\(workspace.logText)")
        locator.signal(SIGTERM)
        agent.signal(SIGTERM)
        #expect(locator.wait(timeout: 10) == 0 && agent.wait(timeout: 10) == 0)
    }

    @Test func aTakenPortExits69AndABadAddressExits78() throws {
        let broker = try MosquittoBroker()
        let workspace = try Workspace(
            port: broker.port, extra: "metrics:\n  listen: 127.0.0.1:\(broker.port)\n")
        let taken = try workspace.start()
        #expect(taken.wait(timeout: 10) == 69)
        #expect(
            workspace.logText.contains(
                "metrics.listen: cannot listen on 127.0.0.1:\(broker.port): Address already in use (another process serves there;"
            ),
            "\(workspace.logText)")
        // Only our own lines: libmicrohttpd's ("Failed to bind to port …") never reaches the log.
        #expect(!workspace.logText.contains("Failed to bind"), "\(workspace.logText)")
        #expect(
            workspace.logText.split(separator: "\n").allSatisfy {
                $0.hasPrefix("error: ") || $0.hasPrefix("info: ") || $0.hasPrefix("notice: ")
                    || $0.hasPrefix("warning: ")
            }, "\(workspace.logText)")
        try workspace.write(port: broker.port, extra: "metrics:\n  listen: localhost:9851\n")
        let bad = try workspace.start()
        #expect(bad.wait(timeout: 10) == 78)
        #expect(workspace.logText.contains("metrics.listen"))
    }
}

/// docs/metrics.md lists exactly the families the exposition writes.
@Suite struct MetricsDocumentationTests {
    @Test func theDocsListEveryMetricFamily() throws {
        let text = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("docs/metrics.md"), encoding: .utf8)
        let names = text.split(separator: "\n").filter { $0.hasPrefix("| `") }.compactMap { line -> String? in
            let cell = line.dropFirst(3).prefix { $0 != "`" }
            return cell.contains("_") && !cell.hasPrefix("/") ? String(cell) : nil
        }
        #expect(names == MetricsExposition.familyNames)
    }
}
