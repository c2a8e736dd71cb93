import CMicroHTTPD
import Glibc

/// The libmicrohttpd functions the endpoint calls, resolved with `dlopen` the first time an endpoint
/// starts. Linking it instead would load GnuTLS and its eight dependencies into every gateway, and
/// their constructors alone cost about 2.4 MiB of RSS with metrics off (the default).
// Invariant for @unchecked Sendable: every field is a function address from dlsym, set once in `load`
// and never written again (the variadic MHD_start_daemon imports as an OpaquePointer).
struct MicroHTTPDLibrary: @unchecked Sendable {
    /// The soname of Debian's libmicrohttpd12 (the package's Depends names it).
    static let soname = "libmicrohttpd.so.12"

    let startDaemon: b2m_mhd_start_daemon_fn
    let stopDaemon: b2m_mhd_stop_daemon_fn
    let createResponseFromBuffer: b2m_mhd_create_response_from_buffer_fn
    let destroyResponse: b2m_mhd_destroy_response_fn
    let addResponseHeader: b2m_mhd_add_response_header_fn
    let queueResponse: b2m_mhd_queue_response_fn
    let createResponseFromCallback: b2m_mhd_create_response_from_callback_fn
    let lookupConnectionValue: b2m_mhd_lookup_connection_value_fn

    /// Loaded once (Swift globals initialise once, thread-safely); the handle is never closed, since
    /// an endpoint may start again after a reload.
    static let shared: Result<MicroHTTPDLibrary, MetricsServer.StartError> = load()

    private static func load() -> Result<MicroHTTPDLibrary, MetricsServer.StartError> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(failure("cannot load"))
        }
        func symbol<F>(_ name: String, as type: F.Type) throws(MetricsServer.StartError) -> F {
            guard let address = dlsym(handle, name) else { throw failure("no \(name) in") }
            return unsafeBitCast(address, to: type)
        }
        do throws(MetricsServer.StartError) {
            return .success(
                MicroHTTPDLibrary(
                    startDaemon: try symbol("MHD_start_daemon", as: b2m_mhd_start_daemon_fn.self),
                    stopDaemon: try symbol("MHD_stop_daemon", as: b2m_mhd_stop_daemon_fn.self),
                    createResponseFromBuffer: try symbol(
                        "MHD_create_response_from_buffer", as: b2m_mhd_create_response_from_buffer_fn.self),
                    destroyResponse: try symbol("MHD_destroy_response", as: b2m_mhd_destroy_response_fn.self),
                    addResponseHeader: try symbol("MHD_add_response_header", as: b2m_mhd_add_response_header_fn.self),
                    queueResponse: try symbol("MHD_queue_response", as: b2m_mhd_queue_response_fn.self),
                    createResponseFromCallback: try symbol(
                        "MHD_create_response_from_callback", as: b2m_mhd_create_response_from_callback_fn.self),
                    lookupConnectionValue: try symbol(
                        "MHD_lookup_connection_value", as: b2m_mhd_lookup_connection_value_fn.self)))
        } catch {
            return .failure(error)
        }
    }

    private static func failure(_ what: String) -> MetricsServer.StartError {
        let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
        return MetricsServer.StartError(
            description: "needs libmicrohttpd: \(what) \(soname) (\(reason)); install libmicrohttpd12")
    }
}
