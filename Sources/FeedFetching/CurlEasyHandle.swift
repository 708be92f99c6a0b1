import CCurl

/// One libcurl easy handle, owned and cleaned up by this object. Reusing a handle across
/// transfers keeps its connection cache, so one worker's requests to one host share a connection.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer

    private static let globalInit: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    init?() {
        guard Self.globalInit, let handle = curl_easy_init() else { return nil }
        raw = handle
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
