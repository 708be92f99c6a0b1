import FeedBasics

/// Takes a feed's body as it arrives, so that it is never held whole: the update step parses,
/// normalises and stores each entry as soon as its bytes are in.
///
/// Started only for the final, successful (2xx) response, and only once the body has
/// outgrown ``BodyStream/holdLimit`` or has ended; a body that ends smaller and hashes the
/// same as last time is reported not modified without the consumer ever seeing it. After a
/// failed or not-modified fetch, what was consumed must be thrown away by the caller.
public protocol FetchBodyConsumer: AnyObject {
    /// The body begins. `finalURL` is where it comes from (after redirects), `status` its
    /// (2xx) status, `contentType` the response's `Content-Type`.
    func start(finalURL: String, status: Int, contentType: String?)
    /// The next bytes, decompressed. Returning `false` stops the transfer (the consumer has
    /// seen enough to know the rest would change nothing).
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// `true`: a body that ends within ``BodyStream/holdLimit`` is not handed over during the
    /// fetch but returned in ``FetchResponse/body``, for the caller to hand over itself once
    /// the fetch has returned, and its transfer slot is free for the next feed
    /// (``FetchScheduler``). Most feeds are that small.
    var takesSmallBodiesAfterTheFetch: Bool { get }
}

extension FetchBodyConsumer {
    public var takesSmallBodiesAfterTheFetch: Bool { false }
}

/// The final response's body on its way from libcurl: counted against the size cap (in
/// decompressed bytes), hashed, and held (without a consumer, or up to ``holdLimit``) or
/// handed on to the consumer.
final class BodyStream {
    /// A body up to this size is held before the consumer starts: most feeds are smaller, and
    /// one that hashes the same as last time then costs no parse. A consumer that takes such
    /// bodies after the fetch parses them once the transfer slot is free; a larger body is
    /// parsed as it arrives, holding its slot meanwhile. 1 MiB covers 997 of the benchmark
    /// corpus's 1,000 feeds (256 KiB covered 798): 4 interleaved pairs of cold runs at 100 ms
    /// and concurrency 32, each faster, peak RSS 57–62 MiB against 53–58. The workers
    /// (``FetchScheduler``) × this bounds what held bodies take.
    static let holdLimit = 1 << 20

    let limit: Int
    let consumer: FetchBodyConsumer?
    /// A recording keeps the whole body as well as streaming it.
    let keepsWhole: Bool
    /// Bytes not handed to a consumer (with `keepsWhole`, all of them).
    private(set) var held: [UInt8] = []
    private var count = 0
    private(set) var exceededLimit = false
    /// The consumer refused more.
    private(set) var stoppedByConsumer = false
    private var started = false
    private var hasher = SHA256()
    private var origin: (finalURL: String, status: Int, contentType: String?)?

    init(limit: Int, consumer: FetchBodyConsumer?, keepsWhole: Bool = false) {
        self.limit = limit
        self.consumer = consumer
        self.keepsWhole = keepsWhole
    }

    /// Where the body comes from; set when its headers are in.
    func begin(finalURL: String, status: Int, contentType: String?) {
        origin = (finalURL, status, contentType)
    }

    /// Bytes accepted, or `false` to stop the transfer.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard count + bytes.count <= limit else {
            exceededLimit = true
            return false
        }
        count += bytes.count
        hasher.update(bytes)
        guard let consumer, started || count > Self.holdLimit else {
            held.append(contentsOf: bytes)
            return true
        }
        if !started { startConsumer(consumer) }
        if keepsWhole { held.append(contentsOf: bytes) }
        guard consumer.receive(bytes) else {
            stoppedByConsumer = true
            return false
        }
        return true
    }

    /// SHA-256 (hex) of the whole body. Call once, at its end.
    func digest() -> String {
        let finished = hasher
        return SHA256.hex(finished.finalize())
    }

    /// At the body's end: what the response carries. Without a consumer, the body. A consumer
    /// that never started (the body stayed within ``holdLimit``) is started and handed it now,
    /// unless it takes small bodies after the fetch: then the response carries it.
    func finish() -> [UInt8] {
        guard let consumer, !started else { return consumer == nil ? held : [] }
        if consumer.takesSmallBodiesAfterTheFetch { return held }
        startConsumer(consumer)
        return []
    }

    private func startConsumer(_ consumer: FetchBodyConsumer) {
        started = true
        consumer.start(finalURL: origin?.finalURL ?? "", status: origin?.status ?? 200, contentType: origin?.contentType)
        let early = held
        if !keepsWhole { held = [] }
        if !early.isEmpty, !early.withUnsafeBytes({ consumer.receive($0) }) { stoppedByConsumer = true }
    }
}
