import FeedBasics
@testable import FeedFetching
import Foundation
import TestSupport
import Testing

/// A fetch with a consumer gives small bodies back with the response; those are held as they
/// came over the wire and inflated only when read, with the size cap on the inflated bytes.
@Suite("Bodies held compressed until they are read")
struct CompressedBodyTests {
    let fetcher = HTTPFetcher(configuration: localConfiguration())
    static let feed = Array(String(repeating: "<item><title>compressed</title></item>\n", count: 2_000).utf8)
    /// Random ids compress badly: over 1 MiB even gzipped, so the body streams.
    static let large = Array((0..<60_000).map { _ in "<item><guid>\(UUID())</guid></item>\n" }.joined().utf8)

    /// What a server was sent in `Accept-Encoding`, request by request.
    final class AcceptLog: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func add(_ value: String) { lock.withLock { values.append(value) } }
        var all: [String] { lock.withLock { values } }
    }

    /// Serves `body` with `Content-Encoding: coding`, and remembers what the client accepted.
    struct EncodingServer {
        let server: TestHTTPServer
        let log = AcceptLog()

        init(coding: String, body: [UInt8], chunkSize: Int? = nil) throws {
            let log = self.log
            server = try TestHTTPServer { request in
                log.add(request.headers["accept-encoding"] ?? "")
                return .init(headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", coding)], body: body, chunkSize: chunkSize)
            }
        }

        var acceptEncoding: [String] { log.all }
    }

    /// Everything the held body hands on, decoded, or the error it throws.
    static func decoded(_ response: FetchResponse) -> Result<[UInt8], FetchError> {
        var bytes: [UInt8] = []
        do throws(FetchError) {
            try response.heldBody?.withDecoded { piece in
                bytes += piece
                return true
            }
            return .success(bytes)
        } catch {
            return .failure(error)
        }
    }

    func fetchHeld(_ url: String, fetcher: HTTPFetcher? = nil) throws -> FetchResponse? {
        let consumer = RecordingConsumer()
        let outcome = try (fetcher ?? self.fetcher).fetch(FetchRequest(url: url), consumer: consumer)
        #expect(consumer.starts.isEmpty, "a small body is not handed over during the fetch")
        guard case .fetched(let response) = outcome else {
            Issue.record("expected a body, got \(outcome)")
            return nil
        }
        return response
    }

    @Test func aSmallGzippedBodyIsHeldCompressedAndInflatedWhenRead() throws {
        let compressed = try gzipped(Self.feed)
        let server = try EncodingServer(coding: "gzip", body: compressed)
        let response = try #require(try fetchHeld(server.server.baseURL + "/"))
        #expect(server.acceptEncoding == ["gzip, deflate"], "asks only for what it can inflate itself")
        #expect(response.bodyCoding == .gzip)
        #expect(response.body == compressed, "held as it came over the wire")
        #expect(response.bodyHash == SHA256.hexDigest(compressed), "hashed as received: no inflating to find a feed unchanged")
        #expect(try Self.decoded(response).get() == Self.feed)
    }

    @Test(arguments: [true, false])
    func deflateWithOrWithoutItsZlibHeaderIsInflated(zlibHeader: Bool) throws {
        let server = try EncodingServer(coding: "deflate", body: try deflated(Self.feed, zlibHeader: zlibHeader))
        let response = try #require(try fetchHeld(server.server.baseURL + "/"))
        #expect(response.bodyCoding == .deflate)
        #expect(try Self.decoded(response).get() == Self.feed)
    }

    /// The held buffer doubles as it grows, but not past the hold limit: a body just under it
    /// is not given twice its size.
    @Test func aBodyJustUnderTheHoldLimitIsHeldInNoMoreThanTheLimit() throws {
        let body = (0..<(BodyStream.holdLimit - 100)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try TestHTTPServer { _ in
            // Pieces that are no power of two: doubling from 10,000 bytes would pass 1 MiB.
            .init(headers: [("Content-Type", "application/rss+xml")], body: body, chunkSize: 10_000, chunkDelay: 0.001)
        }
        let response = try #require(try fetchHeld(server.baseURL + "/"))
        #expect(response.body == body)
        // The allocator rounds a request up by a few bytes; doubling would have given ~2 MiB.
        #expect(response.body.capacity < BodyStream.holdLimit + 4096, "held in \(response.body.capacity) bytes")
    }

    @Test func aLargeGzippedBodyIsInflatedIntoTheConsumerAsItArrives() throws {
        let large = Self.large
        let compressed = try gzipped(large)
        #expect(compressed.count > BodyStream.holdLimit, "past what is held, even compressed")
        let server = try EncodingServer(coding: "gzip", body: compressed, chunkSize: 65_536)
        let consumer = RecordingConsumer()
        guard case .fetched(let response) = try fetcher.fetch(FetchRequest(url: server.server.baseURL + "/"), consumer: consumer) else {
            Issue.record("expected a body")
            return
        }
        #expect(consumer.bytes == large, "inflated, every byte once, in order")
        #expect(consumer.starts.count == 1 && response.body.isEmpty)
        #expect(response.bodyHash == SHA256.hexDigest(compressed))
    }

    /// 32 MiB of spaces gzip to about 32 KB: held, then stopped at the cap while inflating.
    @Test func aSmallBombIsStoppedAtTheCapWhenRead() throws {
        let bomb = try gzipped([UInt8](repeating: 0x20, count: 32 << 20))
        let server = try EncodingServer(coding: "gzip", body: bomb)
        let limited = HTTPFetcher(configuration: localConfiguration { $0.maxBodyBytes = 4 << 20 })
        let response = try #require(try fetchHeld(server.server.baseURL + "/", fetcher: limited))
        var handedOn = 0
        let error = fetchError {
            try response.heldBody?.withDecoded { piece in
                handedOn += piece.count
                return true
            }
        }
        #expect(error?.kind == .tooLarge)
        #expect(handedOn <= 4 << 20)
    }

    @Test func damagedOrCutShortDataIsAnErrorNotAShorterDocument() throws {
        let compressed = try gzipped(Self.feed)
        var damaged = compressed
        for index in 20..<40 { damaged[index] ^= 0xFF }
        let cases: [(String, [UInt8], String)] = [
            ("damaged", damaged, "damaged"),
            ("cut short", Array(compressed.prefix(compressed.count / 2)), "ends before the end"),
        ]
        for (name, body, message) in cases {
            let server = try EncodingServer(coding: "gzip", body: body)
            let response = try #require(try fetchHeld(server.server.baseURL + "/"))
            guard case .failure(let error) = Self.decoded(response) else {
                Issue.record("\(name): expected an error")
                continue
            }
            #expect(error.kind == .network, "\(name)")
            #expect(error.message.contains(message), "\(name): \(error.message)")
        }
    }

    @Test func aLargeBodyCutShortFailsTheFetch() throws {
        let compressed = try gzipped(Self.large)
        let cut = Array(compressed.dropLast(1_000))
        #expect(cut.count > BodyStream.holdLimit, "streamed, not held")
        let server = try EncodingServer(coding: "gzip", body: cut)
        let consumer = RecordingConsumer()
        let error = fetchError { _ = try fetcher.fetch(FetchRequest(url: server.server.baseURL + "/"), consumer: consumer) }
        #expect(error?.kind == .network)
        #expect(error?.message.contains("ends before the end") == true, "\(String(describing: error))")
    }

    @Test func anEncodingNotAskedForIsAClearError() throws {
        let server = try EncodingServer(coding: "br", body: Array("not brotli at all".utf8))
        let consumer = RecordingConsumer()
        let error = fetchError { _ = try fetcher.fetch(FetchRequest(url: server.server.baseURL + "/"), consumer: consumer) }
        #expect(error?.kind == .network)
        #expect(error?.message.contains("\"br\"") == true, "\(String(describing: error))")
        #expect(consumer.starts.isEmpty)
    }

    /// Without a consumer (a feed list, recordings), libcurl decodes as before.
    @Test func aFetchWithoutAConsumerGetsTheBodyDecoded() throws {
        let server = try EncodingServer(coding: "gzip", body: try gzipped(Self.feed))
        guard case .fetched(let response) = try fetcher.fetch(FetchRequest(url: server.server.baseURL + "/")) else {
            Issue.record("expected a body")
            return
        }
        #expect(response.bodyCoding == .identity && response.body == Self.feed)
        #expect(server.acceptEncoding.first?.contains("gzip") == true)
    }

    @Test func contentEncodingValuesAreReadAsServersSendThem() {
        #expect(ContentCoding.of(contentEncoding: nil) == .identity)
        #expect(ContentCoding.of(contentEncoding: "identity") == .identity)
        #expect(ContentCoding.of(contentEncoding: " GZIP ") == .gzip)
        #expect(ContentCoding.of(contentEncoding: "x-gzip") == .gzip)
        #expect(ContentCoding.of(contentEncoding: "deflate, identity") == .deflate)
        #expect(ContentCoding.of(contentEncoding: "gzip, gzip") == nil, "stacked codings are not inflated twice")
        #expect(ContentCoding.of(contentEncoding: "zstd") == nil)
    }
}
