import FeedBasics
import FeedFetching
import Foundation
import TestSupport
import Testing

/// Records what a body consumer was given, and can refuse more after a number of bytes.
final class RecordingConsumer: BodyConsumer {
    var starts: [BodySource] = []
    var chunks: [[UInt8]] = []
    let refuseAfter: Int?

    init(refuseAfter: Int? = nil) {
        self.refuseAfter = refuseAfter
    }

    var bytes: [UInt8] { chunks.flatMap { $0 } }

    func start(_ source: BodySource) {
        starts.append(source)
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

    /// Past what is held even gzipped, so it streams; inflated by Feedmill, as every body a
    /// consumer reads is (``CompressedBodyTests``).
    @Test(arguments: [false, true])
    func aLargeGzippedBodyReachesTheConsumerInPiecesAndIsNotKept(closeDelimited: Bool) throws {
        let large = Self.poorlyCompressible(count: 6 << 20)
        let compressed = try gzipped(large)
        #expect(compressed.count > 1 << 20, "streamed, not held")
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
        #expect(consumer.bytes == large, "decompressed, every byte once, in order")
        #expect(consumer.chunks.count > 2, "handed on as it arrived, not at the end")
        #expect(consumer.starts.count == 1)
        #expect(consumer.starts.first?.url == server.baseURL + "/big")
        #expect(consumer.starts.first?.contentType == "application/rss+xml; charset=utf-8")
        #expect(response.body.isEmpty, "the fetcher keeps no copy")
        #expect(response.bodyHash == SHA256.hexDigest(compressed), "hashed as received")
    }

    /// It comes back with the response (below), and is handed on from there, whole.
    @Test func aSmallBodyIsHandedOnWholeAfterTheTransfer() throws {
        let server = try TestHTTPServer { _ in .init(contentType: "application/atom+xml", body: "<feed/>") }
        let consumer = RecordingConsumer()
        guard case .fetched(let response) = try fetcher.fetch(FetchRequest(url: server.baseURL + "/"), consumer: consumer) else {
            Issue.record("expected a body")
            return
        }
        try response.heldBody?.handOn(to: consumer)
        #expect(consumer.chunks == [Array("<feed/>".utf8)])
        #expect(consumer.starts.first?.url == server.baseURL + "/" && consumer.starts.first?.contentType == "application/atom+xml")
    }

    /// A small body comes back with the response, so the feed's transfer slot is free before
    /// it is parsed; a large one still streams.
    @Test func aConsumerGetsSmallBodiesInTheResponse() throws {
        let server = try TestHTTPServer { request in
            .init(headers: [("Content-Type", "application/atom+xml")], body: request.path == "/small" ? Array("<feed/>".utf8) : Self.large)
        }
        let small = RecordingConsumer()
        guard case .fetched(let response) = try fetcher.fetch(FetchRequest(url: server.baseURL + "/small"), consumer: small) else {
            Issue.record("expected a body")
            return
        }
        #expect(small.starts.isEmpty && small.chunks.isEmpty, "not handed over during the fetch")
        #expect(response.body == Array("<feed/>".utf8))
        #expect(response.bodyHash == SHA256.hexDigest(Array("<feed/>".utf8)))

        let large = RecordingConsumer()
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

    /// Bytes that gzip only about three and a half to one: megabytes of them are still past
    /// what is held once gzipped, so they stream.
    static func poorlyCompressible(count: Int) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return 0x40 | UInt8(truncatingIfNeeded: state & 0x03)
        }
    }

    @Test func theSizeCapCountsDecompressedBytesWhileStreaming() throws {
        let bomb = try gzipped(Self.poorlyCompressible(count: 8 << 20))
        #expect(bomb.count > 1 << 20 && bomb.count < 4 << 20, "streamed, not held; under the cap as sent")
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
        let outcome = try fetcher.fetch(FetchRequest(url: server.baseURL + "/old"), consumer: consumer)
        // Small: handed on after the fetch, from the response.
        try outcome.response.heldBody?.handOn(to: consumer)
        #expect(consumer.bytes == Array("<rss/>".utf8))
        #expect(consumer.starts.first?.url == server.baseURL + "/new")
    }

    @Test func anErrorStatusBodyIsNeverConsumed() throws {
        let server = try TestHTTPServer { _ in .init(status: 500, body: Self.large) }
        let consumer = RecordingConsumer()
        #expect(fetchError { _ = try fetcher.fetch(FetchRequest(url: server.baseURL + "/"), consumer: consumer) }?.kind == .httpStatus)
        #expect(consumer.starts.isEmpty && consumer.chunks.isEmpty)
    }
}
