import CCurl
import FeedBasics

/// One libcurl easy handle, owned and cleaned up by this object. Reusing a handle across
/// transfers keeps its connection cache, so one worker's requests to one host share a connection.
final class CurlEasyHandle {
    let raw: UnsafeMutableRawPointer
    /// libcurl's own words about the last failure (`CURLOPT_ERRORBUFFER`): what went wrong in
    /// particular ("SSL certificate problem: self-signed certificate"), where
    /// `curl_easy_strerror` names only the result code ("SSL peer certificate or SSH remote key
    /// was not OK"). It lives as long as the handle, which libcurl writes it from.
    private let errorBuffer: UnsafeMutablePointer<CChar>

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
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // Kept through `curl_easy_reset`, which leaves shares, connections and caches alone.
        if let share = Self.dnsShare { set(CURLOPT_SHARE, pointer: share) }
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Clears every option (`curl_easy_reset` keeps connections and caches) and the error
    /// buffer, and hands libcurl the buffer again (a reset forgets it).
    func reset() {
        curl_easy_reset(raw)
        errorBuffer[0] = 0
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    /// What libcurl wrote about the last transfer's failure, if anything.
    var errorText: String? {
        errorBuffer[Int(CURL_ERROR_SIZE) - 1] = 0
        let text = String(cString: errorBuffer).trimmingASCII(" \t\r\n")
        return text.isEmpty ? nil : text
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
