import FeedBasics
import FeedFetching
import Foundation
import TestSupport
import Testing

/// Records what a body consumer was given, and can refuse more after a number of bytes.
final class RecordingConsumer: FetchBodyConsumer {
    var starts: [(finalURL: String, status: Int, contentType: String?)] = []
    var chunks: [[UInt8]] = []
    let refuseAfter: Int?
    let takesSmallBodiesAfterTheFetch: Bool

    init(refuseAfter: Int? = nil, takesSmallBodiesAfterTheFetch: Bool = false) {
        self.refuseAfter = refuseAfter
        self.takesSmallBodiesAfterTheFetch = takesSmallBodiesAfterTheFetch
    }

    var bytes: [UInt8] { chunks.flatMap { $0 } }

    func start(finalURL: String, status: Int, contentType: String?) {
        starts.append((finalURL, status, contentType))
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        chunks.append(Array(bytes))
        return refuseAfter.map { self.bytes.count < $0 } ?? true
    }
}

@Suite("Streaming bodies: a consumer takes the body as it arrives")
struct BodyStreamingTests {
    let fetcher = HTTPFetcher(configuration: localConfiguration())
    /// Larger than what is held before a consumer starts (1 MiB).
    static let large: [UInt8] = Array(String(repeating: "<item><title>streamed</title></item>\n", count: 40_000).utf8)

    @Test(arguments: [false, true])
    func aLargeGzippedBodyReachesTheConsumerInPiecesAndIsNotKept(closeDelimited: Bool) throws {
        let compressed = try gzipped(Self.large)
        let server = try TestHTTPServer { _ in
            .init(
                headers: [("Content-Encoding", "gzip"), ("Content-Type", "application/rss+xml; charset=utf-8")],
                body: compressed, chunkSize: closeDelimited ? 16_384 : nil)
        }
        let consumer = RecordingConsumer()
        let outcome = try fetcher.fetch(FetchRequest(url: server.baseURL + "/big"), consumer: consumer)
        guard case .fetched(let response) = outcome else {
            Issue.record("expected a body, got \(outcome)")
            return
        }
        #expect(consumer.bytes == Self.large, "decompressed by libcurl, every byte once, in order")
        #expect(consumer.chunks.count > 2, "handed on as it arrived, not at the end")
        #expect(consumer.starts.count == 1)
        #expect(consumer.starts.first?.finalURL == server.baseURL + "/big")
        #expect(consumer.starts.first?.contentType == "application/rss+xml; charset=utf-8")
        #expect(response.body.isEmpty, "the fetcher keeps no copy")
        #expect(response.bodyHash == SHA256.hexDigest(Self.large))
    }

    @Test func aSmallBodyIsHandedOnWholeAfterTheTransfer() throws {
        let server = try TestHTTPServer { _ in .init(contentType: "application/atom+xml", body: "<feed/>") }
        let consumer = RecordingConsumer()
        guard case .fetched = try fetcher.fetch(FetchRequest(url: server.baseURL + "/"), consumer: consumer) else {
            Issue.record("expected a body")
            return
        }
        #expect(consumer.chunks == [Array("<feed/>".utf8)])
    }

    /// What the update run asks for: a small body comes back with the response, so the feed's
    /// transfer slot is free before it is parsed; a large one still streams.
    @Test func aConsumerThatTakesSmallBodiesAfterTheFetchGetsThemInTheResponse() throws {
        let server = try TestHTTPServer { request in
            .init(headers: [("Content-Type", "application/atom+xml")], body: request.path == "/small" ? Array("<feed/>".utf8) : Self.large)
        }
        let small = RecordingConsumer(takesSmallBodiesAfterTheFetch: true)
        guard case .fetched(let response) = try fetcher.fetch(FetchRequest(url: server.baseURL + "/small"), consumer: small) else {
            Issue.record("expected a body")
            return
        }
        #expect(small.starts.isEmpty && small.chunks.isEmpty, "not handed over during the fetch")
        #expect(response.body == Array("<feed/>".utf8))
        #expect(response.bodyHash == SHA256.hexDigest(Array("<feed/>".utf8)))

        let large = RecordingConsumer(takesSmallBodiesAfterTheFetch: true)
        guard case .fetched(let streamed) = try fetcher.fetch(FetchRequest(url: server.baseURL + "/large"), consumer: large) else {
            Issue.record("expected a body")
            return
        }
        #expect(large.bytes == Self.large && large.starts.count == 1)
        #expect(streamed.body.isEmpty, "a streamed body is not kept")
    }

    @Test func aSmallBodyThatHashesAsLastTimeIsNeverConsumed() throws {
        let body = "<rss><channel><title>same</title></channel></rss>"
        let server = try TestHTTPServer { _ in .init(contentType: "application/rss+xml", body: body) }
        let consumer = RecordingConsumer()
        let request = FetchRequest(url: server.baseURL + "/", previousBodyHash: SHA256.hexDigest(Array(body.utf8)))
        guard case .notModified = try fetcher.fetch(request, consumer: consumer) else {
            Issue.record("expected not modified")
            return
        }
        #expect(consumer.starts.isEmpty)
    }

    @Test func aLargeBodyThatHashesAsLastTimeIsReportedNotModified() throws {
        let server = try TestHTTPServer { _ in .init(body: Self.large) }
        let consumer = RecordingConsumer()
        let request = FetchRequest(url: server.baseURL + "/", previousBodyHash: SHA256.hexDigest(Self.large))
        guard case .notModified = try fetcher.fetch(request, consumer: consumer) else {
            Issue.record("expected not modified")
            return
        }
        #expect(!consumer.chunks.isEmpty, "streamed before the hash was known; the caller throws it away")
    }

    @Test func theSizeCapCountsDecompressedBytesWhileStreaming() throws {
        let bomb = try gzipped([UInt8](repeating: 0x20, count: 32 << 20))
        let server = try TestHTTPServer { _ in .init(headers: [("Content-Encoding", "gzip")], body: bomb) }
        let limited = HTTPFetcher(configuration: localConfiguration { $0.maxBodyBytes = 4 << 20 })
        let consumer = RecordingConsumer()
        let error = fetchError { _ = try limited.fetch(FetchRequest(url: server.baseURL + "/"), consumer: consumer) }
        #expect(error?.kind == .tooLarge)
        #expect(consumer.bytes.count <= 4 << 20)
        #expect(consumer.bytes.count > 1 << 20, "the consumer had started before the cap was reached")
    }

    @Test func aConsumerThatRefusesMoreStopsTheTransfer() throws {
        let server = try TestHTTPServer { _ in .init(body: Self.large + Self.large, chunkSize: 65_536, chunkDelay: 0.01) }
        let consumer = RecordingConsumer(refuseAfter: 300 << 10)
        let error = fetchError { _ = try fetcher.fetch(FetchRequest(url: server.baseURL + "/"), consumer: consumer) }
        #expect(error != nil)
        #expect(consumer.bytes.count < Self.large.count, "the rest was never downloaded")
    }

    @Test func onlyTheFinalResponsesBodyIsConsumed() throws {
        let server = try TestHTTPServer { request in
            request.path == "/old"
                ? .init(status: 301, headers: [("Location", "/new")], body: Array("<html>moved</html>".utf8))
                : .init(contentType: "application/rss+xml", body: "<rss/>")
        }
        let consumer = RecordingConsumer()
        _ = try fetcher.fetch(FetchRequest(url: server.baseURL + "/old"), consumer: consumer)
        #expect(consumer.bytes == Array("<rss/>".utf8))
        #expect(consumer.starts.first?.finalURL == server.baseURL + "/new")
    }

    @Test func anErrorStatusBodyIsNeverConsumed() throws {
        let server = try TestHTTPServer { _ in .init(status: 500, body: Self.large) }
        let consumer = RecordingConsumer()
        #expect(fetchError { _ = try fetcher.fetch(FetchRequest(url: server.baseURL + "/"), consumer: consumer) }?.kind == .httpStatus)
        #expect(consumer.starts.isEmpty && consumer.chunks.isEmpty)
    }
}
