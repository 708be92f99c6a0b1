import FeedModel
import FeedNormalization
import FeedParsing

/// libFuzzer's entry point: any bytes through the whole parse → normalise path, with and
/// without a transport charset, and through the HTML sanitiser alone. A crash, a hang (libFuzzer's -timeout) or a sanitizer report
/// is a finding; errors the parser throws are expected answers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let charset: String? = bytes.first.map { $0 & 1 == 0 ? nil : "iso-8859-1" } ?? nil
    let whole = Result { () throws(FeedParseError) in try FeedParser.parse(bytes, charset: charset) }
    // The same bytes arriving in chunks (sizes taken from the input) must read the same,
    // diagnostics included: libxml2 is given the same slices however the bytes arrived.
    precondition(streamed(bytes, charset: charset) == whole, "chunk boundaries change nothing")
    if let parsed = try? whole.get() {
        // A fixed time of reading: a finding must replay the same.
        let now: Int64 = 1_700_000_000
        let normalized = FeedNormalizer.normalize(parsed, feedURL: "https://fuzz.example/feed/index.xml", now: now)
        // Touch every stored field, so nothing is optimised away.
        var total = normalized.title.utf8.count
        for entry in normalized.entries {
            total &+= entry.id.utf8.count &+ entry.title.utf8.count &+ entry.summary.utf8.count &+ (entry.permalink?.utf8.count ?? 0)
            precondition(!entry.id.isEmpty, "an entry id is never empty")
            precondition(String(validating: entry.summary.utf8, as: UTF8.self) != nil, "a summary is valid UTF-8")
            for date in [entry.pubdate, entry.updated].compactMap({ $0 }) {
                precondition(date > 0 && date <= now + DateRule.futureMargin, "a kept date lies after 1970 and at most a day ahead")
            }
        }
        if total == -1 { print(total) }
    }
    // The sanitiser on its own, on any bytes as HTML: its output is a fixed point, so nothing
    // it lets through would be changed (removed) by reading it again.
    let sanitizer = HTMLSanitizer(baseURL: "https://fuzz.example/a/b")
    let once = sanitizer.sanitize(html: String(decoding: bytes, as: UTF8.self))
    precondition(sanitizer.sanitize(html: once) == once, "sanitising twice changes nothing")
    _ = try? OPMLParser.parse(bytes)
    return 0
}

/// `bytes` through ``FeedStreamParser`` in chunks of 1 to 64 bytes, sizes drawn from the bytes.
private func streamed(_ bytes: [UInt8], charset: String?) -> Result<ParsedFeed, FeedParseError> {
    var entries: [ParsedEntry] = []
    let parser = FeedStreamParser(charset: charset) { entry, _ in entries.append(entry) }
    var offset = 0
    bytes.withUnsafeBytes { buffer in
        while offset < buffer.count {
            let length = min(Int(buffer[offset] & 63) + 1, buffer.count - offset)
            parser.append(UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + length)]))
            offset += length
        }
    }
    return Result { () throws(FeedParseError) in
        var feed = try parser.finish()
        feed.entries = entries
        return feed
    }
}

/// The outcome without libxml2's wording: diagnostics dropped, an unreadable document's
/// position and reason dropped.
private func comparable(_ result: Result<ParsedFeed, FeedParseError>) -> Result<ParsedFeed, FeedParseError> {
    switch result {
    case .success(var feed):
        feed.diagnostics = []
        return .success(feed)
    case .failure(.unreadable):
        return .failure(.unreadable(line: 0, column: 0, reason: ""))
    case .failure(let error):
        return .failure(error)
    }
}
