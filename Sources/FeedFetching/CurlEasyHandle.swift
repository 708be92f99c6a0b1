import CCurl

/// One libcurl easy handle, owned and cleaned up by this object. Reusing a handle across
/// transfers keeps its connection cache, so one worker's requests to one host share a connection.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer

    private static let globalInit: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    /// The process's one DNS cache, shared by every handle (see the C shim for why); `nil`
    /// if libcurl could not make it, and then each handle keeps its own as before.
    private nonisolated(unsafe) static let dnsShare: UnsafeMutableRawPointer? = {
        guard globalInit else { return nil }
        return feedmill_curl_dns_share_create()
    }()

    init?() {
        guard Self.globalInit, let handle = curl_easy_init() else { return nil }
        raw = handle
        // Kept through `curl_easy_reset`, which leaves shares, connections and caches alone.
        if let share = Self.dnsShare { set(CURLOPT_SHARE, pointer: share) }
    }

    deinit {
        curl_easy_cleanup(raw)
    }

    func set(_ option: CURLoption, _ value: Int) {
        _ = feedmill_curl_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, _ value: String) {
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        _ = value.withCString { feedmill_curl_setopt_string(raw, option, $0) }
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        _ = feedmill_curl_setopt_pointer(raw, option, pointer)
    }

    func infoLong(_ info: CURLINFO) -> Int {
        var value = 0
        _ = feedmill_curl_getinfo_long(raw, info, &value)
        return value
    }

    func infoOffset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        _ = feedmill_curl_getinfo_offset(raw, info, &value)
        return Int64(value)
    }

    func infoString(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard feedmill_curl_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }
}
