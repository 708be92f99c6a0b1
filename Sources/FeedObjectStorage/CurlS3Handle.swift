import CCurl
import FeedBasics

/// One libcurl easy handle for one request, cleaned up with this object. FeedFetching has its
/// own (with a shared DNS cache and connection reuse for a million feeds); this module may not
/// depend on the fetcher, which `rss-publish` must not link, so it keeps the little it needs.
final class CurlS3Handle {
    let raw: UnsafeMutableRawPointer
    /// libcurl's own words about a failure (`CURLOPT_ERRORBUFFER`), as long as the handle lives.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init?() {
        guard Self.globalInit, let handle = curl_easy_init() else { return nil }
        raw = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    var errorText: String? {
        errorBuffer[Int(CURL_ERROR_SIZE) - 1] = 0
        let text = String(cString: errorBuffer).trimmingASCII(" \t\r\n")
        return text.isEmpty ? nil : text
    }

    func set(_ option: CURLoption, _ value: Int) {
        _ = feedmill_curl_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, _ value: String) {
        // libcurl copies string options, so the temporary C string may go.
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
}
