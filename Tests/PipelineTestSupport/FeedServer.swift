import FeedBasics
import FeedFetching
import FeedModel
import FeedPipeline
import FeedPublishing
import FeedStorage
import Foundation
import GRDB
import GRDBSQLite
import TestSupport

/// A feed server whose documents the test can change between runs, with ETags.
public final class FeedServer: @unchecked Sendable {
    // `@unchecked Sendable`: `documents` and `overrides` are only touched under `lock`.
    private let lock = NSLock()
    private var documents: [String: String] = [:]
    private var overrides: [String: TestHTTPServer.Response] = [:]
    public private(set) var server: TestHTTPServer!

    public init() throws {
        server = try TestHTTPServer { [unowned self] request in respond(request) }
    }

    public func set(_ path: String, _ document: String) { lock.withLock { documents[path] = document } }
    public func override(_ path: String, _ response: TestHTTPServer.Response?) { lock.withLock { overrides[path] = response } }
    public func url(_ path: String) -> String { server.baseURL + path }

    private func respond(_ request: TestHTTPServer.Request) -> TestHTTPServer.Response {
        lock.withLock {
            if let response = overrides[request.path] { return response }
            guard let document = documents[request.path] else { return .init(status: 404) }
            let etag = "\"\(document.hashValue)\""
            if request.headers["if-none-match"] == etag { return .init(status: 304, headers: [("ETag", etag)]) }
            return .init(headers: [("Content-Type", "application/rss+xml"), ("ETag", etag)], body: Array(document.utf8))
        }
    }
}
