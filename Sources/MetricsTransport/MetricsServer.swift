import CMicroHTTPD
import Glibc
import MetricsContract

/// `/metrics` and `/healthz` over HTTP through libmicrohttpd, on the library's own polling thread:
/// each request copies the `MetricsBoard`'s snapshot and renders it there, so scrapes cost the
/// pipeline nothing. Hostile clients meet the limits (`Limits`): too many connections are closed
/// at once, idle or slow ones after the timeout, requests too large for the per-connection memory
/// are answered with an error status and closed; nothing they send reaches the pipeline.
/// With `map`, it also serves the live map (`/map`, `/map.json`, `/map/events`), on a thread per
/// connection so an event stream waiting for news holds up nothing else; with `tls`, HTTPS only.
package final class MetricsServer: Sendable {
    package struct Limits: Sendable {
        /// Connections open at once (more are accepted and closed at once).
        package var connections: UInt32 = 32
        /// Seconds of inactivity before a connection is closed (slow or stalled clients).
        package var timeoutSeconds: UInt32 = 5
        /// Bytes per connection for the request line and headers, and the answer's buffers.
        package var memoryBytes = 32 * 1024
        package init() {}
    }

    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    private let handle: Handle

    /// Why no endpoint can start on this machine (libmicrohttpd cannot be loaded), or nil: checked
    /// before a start, so a missing library stops `run` and `check-config` alike.
    package static var unavailability: StartError? {
        if case .failure(let error) = MicroHTTPDLibrary.shared { return error }
        return nil
    }

    /// Listens on `address` (dotted IPv4, or IPv6 without brackets) and `port` until `stop`.
    package init(
        board: MetricsBoard, address: String, port: Int, limits: Limits = Limits(), map: MapAccess? = nil,
        tls: TLSIdentity? = nil
    ) throws(StartError) {
        let ipv6 = address.contains(":")
        let endpoint = ipv6 ? "[\(address)]:\(port)" : "\(address):\(port)"
        let portBytes = in_port_t(UInt16(clamping: port)).bigEndian
        // Room for either family; the library reads the family from the address itself.
        var storage = sockaddr_storage()
        let parsed = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
            if ipv6 {
                let a = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                a.pointee.sin6_family = sa_family_t(AF_INET6)
                a.pointee.sin6_port = portBytes
                return inet_pton(AF_INET6, address, &a.pointee.sin6_addr) == 1
            }
            let a = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
            a.pointee.sin_family = sa_family_t(AF_INET)
            a.pointee.sin_port = portBytes
            return inet_pton(AF_INET, address, &a.pointee.sin_addr) == 1
        }
        guard parsed else { throw StartError(description: "'\(address)' is not an IPv4 or IPv6 address") }
        let library = try MicroHTTPDLibrary.shared.get()
        // Bound here rather than by the library, which would print its own line to stderr: a
        // failure is ours to report, with the address and errno's reason.
        func failure(_ code: Int32) -> StartError {
            var reason = String(cString: strerror(code))
            if code == EADDRINUSE {
                reason +=
                    " (another process serves there; beacon2mqtt run and locate on one host need "
                    + "different ports: metrics.listen and metrics.locator_listen)"
            }
            return StartError(description: "cannot listen on \(endpoint): \(reason)")
        }
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure(errno) }
        var on: Int32 = 1
        var off: Int32 = 0
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        // An IPv6 socket is dual-stack, so `::` takes IPv4 clients as well.
        if ipv6 { _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size)) }
        let length = socklen_t(ipv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw failure(code)
        }
        let box = Unmanaged.passRetained(RequestContext(board: board, library: library, map: map))
        // TLS needs room for the library's record buffers besides the request's.
        let memory = tls == nil ? limits.memoryBytes : max(limits.memoryBytes, 64 * 1024)
        let daemon = b2m_mhd_start(
            library.startDaemon, fd, limits.connections, limits.connections, limits.timeoutSeconds,
            memory, map == nil ? 0 : 1, tls?.key, tls?.certificate, metricsRequestHandler, box.toOpaque())
        guard let daemon else {
            box.release()
            close(fd)
            throw StartError(description: "cannot serve on \(endpoint): libmicrohttpd did not start")
        }
        handle = Handle(daemon: daemon, context: box, library: library)
    }

    /// Closes the listening socket and every connection, and joins the library's thread.
    package func stop() { handle.stop() }
}

/// The daemon pointer and the handler's context, released once.
private final class Handle: @unchecked Sendable {
    // Invariant for @unchecked Sendable: `daemon` is read and cleared only under `lock`.
    private var daemon: OpaquePointer?
    private let context: Unmanaged<RequestContext>
    private let library: MicroHTTPDLibrary
    private var lock = pthread_mutex_t()

    init(daemon: OpaquePointer, context: Unmanaged<RequestContext>, library: MicroHTTPDLibrary) {
        self.daemon = daemon
        self.context = context
        self.library = library
        pthread_mutex_init(&lock, nil)
    }

    func stop() {
        pthread_mutex_lock(&lock)
        let running = daemon
        daemon = nil
        pthread_mutex_unlock(&lock)
        guard let running else { return }
        // Event streams end within one poll, so the library can join their threads.
        context.takeUnretainedValue().streams.stop()
        library.stopDaemon(running)
        context.release()
    }

    deinit { stop() }
}

/// What the C handler reaches through its `cls` pointer.
private final class RequestContext: Sendable {
    let board: MetricsBoard
    let library: MicroHTTPDLibrary
    /// nil: the map is off, and its paths are not found.
    let map: MapAccess?
    let streams: MapEventStream.Gate
    init(board: MetricsBoard, library: MicroHTTPDLibrary, map: MapAccess?) {
        self.board = board
        self.library = library
        self.map = map
        streams = MapEventStream.Gate(limit: map?.streams ?? 0)
    }

    /// An answer held in memory: status, content type, body.
    typealias Answer = (status: UInt32, type: String, body: [UInt8])

    static let text = "text/plain; charset=utf-8"

    /// Status, content type and body for one GET (or HEAD) of `path`; nil for the event stream.
    func answer(_ path: String, authorization: () -> String?) -> Answer? {
        switch path {
        case "/metrics":
            return (200, ExpositionWriter.contentType, Array(MetricsExposition.render(board.snapshot()).utf8))
        case "/healthz":
            let problems = board.snapshot().problems
            if problems.isEmpty { return (200, Self.text, Array("ok\n".utf8)) }
            return (503, Self.text, Array((problems.joined(separator: "; ") + "\n").utf8))
        case "/map", "/map.json", "/map/events":
            guard let map else { return (404, Self.text, Array("not found: the map is off (metrics.map)\n".utf8)) }
            guard map.admits(authorization()) else { return (401, Self.text, Array("credentials needed\n".utf8)) }
            if path == "/map" { return (200, "text/html; charset=utf-8", MapPage.bytes) }
            if path == "/map/events" { return nil }
            guard let document = board.map else { return (503, Self.text, Array("no map yet\n".utf8)) }
            return (200, "application/json", document.json)
        default:
            return (404, Self.text, Array("not found; try /metrics, /healthz or /map\n".utf8))
        }
    }
}

/// libmicrohttpd's access handler (MHD_AccessHandlerCallback): answers on the first call, so a
/// request body is never read; anything but GET and HEAD gets 405.
private let metricsRequestHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, _, _, _ in
    guard let context, let connection else { return .NO }
    let server = Unmanaged<RequestContext>.fromOpaque(context).takeUnretainedValue()
    let library = server.library
    let verb = method.map { String(cString: $0) } ?? ""
    let answer: RequestContext.Answer?
    if verb == "GET" || verb == "HEAD" {
        answer = server.answer(url.map { String(cString: $0) } ?? "/") {
            library.lookupConnectionValue(connection, MHD_ValueKind(rawValue: 1)!, "Authorization").map {
                String(cString: $0)
            }
        }
    } else {
        answer = (405, RequestContext.text, Array("only GET and HEAD\n".utf8))
    }
    guard let answer else { return streamMap(server, connection) }
    var body = answer.body
    guard
        let response = body.withUnsafeMutableBytes({
            // MHD_RESPMEM_MUST_COPY
            library.createResponseFromBuffer($0.count, $0.baseAddress, MHD_ResponseMemoryMode(rawValue: 2)!)
        })
    else { return .NO }
    defer { library.destroyResponse(response) }
    _ = library.addResponseHeader(response, "Content-Type", answer.type)
    if answer.status == 405 { _ = library.addResponseHeader(response, "Allow", "GET, HEAD") }
    if answer.status == 401 {
        _ = library.addResponseHeader(
            response, "WWW-Authenticate", "Basic realm=\"beacon2mqtt map\", charset=\"UTF-8\"")
    }
    // The map shows where people are: no cache keeps a copy.
    if url.map({ String(cString: $0).hasPrefix("/map") }) == true {
        _ = library.addResponseHeader(response, "Cache-Control", "no-store")
    }
    return library.queueResponse(connection, answer.status, response)
}

/// `/map/events`: a stream of the map's updates (`MapEventStream`), or 503 when every place is taken.
private func streamMap(_ server: RequestContext, _ connection: OpaquePointer) -> MHD_Result {
    let library = server.library
    guard server.streams.enter() else {
        var body = Array("too many map streams\n".utf8)
        guard
            let response = body.withUnsafeMutableBytes({
                library.createResponseFromBuffer($0.count, $0.baseAddress, MHD_ResponseMemoryMode(rawValue: 2)!)
            })
        else { return .NO }
        defer { library.destroyResponse(response) }
        _ = library.addResponseHeader(response, "Retry-After", "5")
        return library.queueResponse(connection, 503, response)
    }
    let stream = Unmanaged.passRetained(MapEventStream(board: server.board, gate: server.streams))
    guard
        let response = library.createResponseFromCallback(
            b2m_mhd_size_unknown, 16 * 1024, mapEventReader, stream.toOpaque(), mapEventRelease)
    else {
        stream.release()
        return .NO
    }
    defer { library.destroyResponse(response) }
    _ = library.addResponseHeader(response, "Content-Type", "text/event-stream")
    _ = library.addResponseHeader(response, "Cache-Control", "no-store")
    return library.queueResponse(connection, 200, response)
}

private let mapEventReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return b2m_mhd_end_of_stream }
    return Unmanaged<MapEventStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: max)
}

private let mapEventRelease: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<MapEventStream>.fromOpaque(context).release()
}
