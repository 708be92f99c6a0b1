import FeedModel
import FeedBasics
import Foundation

/// A directory of recorded fetches.
///
/// Layout: `bodies/<sha256>` holds each distinct body once (content-addressed: a feed
/// recorded in many runs with the same body costs one file); `exchanges/<sha256 of the
/// request>.json` holds one request (URL and the validators sent) and what came back: the
/// raw response with its body's hash, or the failure when there was no response. The JSON is
/// written with sorted keys, so recording the same answers twice gives the same files.
struct RecordingStore: Sendable {
    let directory: String

    /// One request and its answer, as stored.
    struct Exchange: Codable, Equatable {
        struct Request: Codable, Equatable {
            var url: String
            var ifNoneMatch: String?
            var ifModifiedSince: String?
        }

        struct Failure: Codable, Equatable {
            var kind: FailureKind
            var message: String
            var status: Int?
            var retryAfter: Int?
        }

        var request: Request
        var response: RawResponse?
        var bodySHA256: String?
        var failure: Failure?
    }

    static func key(for request: FetchRequest) -> Exchange.Request {
        Exchange.Request(url: request.url, ifNoneMatch: request.etag, ifModifiedSince: request.lastModified)
    }

    func exchangePath(for request: FetchRequest) -> String {
        let key = Self.key(for: request)
        let text = [key.url, key.ifNoneMatch ?? "", key.ifModifiedSince ?? ""].joined(separator: "\n")
        return directory + "/exchanges/" + SHA256.hexDigest(Array(text.utf8)) + ".json"
    }

    func bodyPath(_ sha256: String) -> String { directory + "/bodies/" + sha256 }

    func record(_ request: FetchRequest, response: RawResponse, body: [UInt8]) throws {
        let hash = SHA256.hexDigest(body)
        if !FileManager.default.fileExists(atPath: bodyPath(hash)) {
            try writeAtomically(body, to: bodyPath(hash))
        }
        try write(Exchange(request: Self.key(for: request), response: response, bodySHA256: hash, failure: nil), for: request)
    }

    func record(_ request: FetchRequest, failure: FetchError) throws {
        let stored = Exchange.Failure(kind: failure.kind, message: failure.message, status: failure.status, retryAfter: failure.retryAfter)
        try write(Exchange(request: Self.key(for: request), response: nil, bodySHA256: nil, failure: stored), for: request)
    }

    /// The recorded answer, or `nil` when this request was never recorded.
    func lookUp(_ request: FetchRequest) throws -> (exchange: Exchange, body: [UInt8])? {
        guard let data = FileManager.default.contents(atPath: exchangePath(for: request)) else { return nil }
        let exchange = try JSONDecoder().decode(Exchange.self, from: data)
        guard let hash = exchange.bodySHA256 else { return (exchange, []) }
        guard let body = FileManager.default.contents(atPath: bodyPath(hash)) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: bodyPath(hash)])
        }
        return (exchange, [UInt8](body))
    }

    private func write(_ exchange: Exchange, for request: FetchRequest) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try writeAtomically([UInt8](try encoder.encode(exchange)) + [0x0A], to: exchangePath(for: request))
    }

    /// Written to a temporary name of its own, synced and renamed: two workers recording the
    /// same body, or a run killed mid-write, never leave a half file under the final name.
    private func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try DurableFiles.write(bytes, to: path, temporary: path + ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    }
}
