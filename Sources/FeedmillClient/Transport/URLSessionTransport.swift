import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default transport: `URLSession` for http(s), the file system for `file:` URLs (a
/// publication on a mounted volume, or in tests). No cache, no cookies, no credential store:
/// `manifest.json` and the pointers change in place and must be read fresh (or revalidated
/// with the ETag the client kept), the content-addressed files never change, and nothing is
/// written outside the client's folder.
///
/// A server is not trusted to be reasonable: every answer is held to the request's
/// ``TransportRequest/maxBytes`` as it arrives (decompressed bytes, so a gzip bomb stops at the
/// cap), the whole request — connecting, waiting and every byte of the body — ends at
/// `timeout` however slowly the bytes drip, redirects stop at ``maximumRedirects`` and never
/// leave http(s), and a cancelled task stops its request at once.
public struct URLSessionTransport: ClientTransport {
    private let engine: Engine
    /// Seconds for one whole request (not per read: a server sending a byte a second cannot
    /// stretch it).
    public let timeout: TimeInterval

    /// More than this many redirects for one request is a loop.
    public static let maximumRedirects = 5

    public init(timeout: TimeInterval = 60) {
        self.timeout = timeout
        engine = Engine(timeout: timeout)
    }

    public func fetch(_ url: URL) async throws -> (status: Int, body: Data) {
        let response = try await fetch(TransportRequest(url: url))
        return (response.status, response.body)
    }

    public func fetch(_ request: TransportRequest) async throws -> TransportResponse {
        if request.url.isFileURL { return try LocalFileTransport.read(request) }
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw ClientError.transport(url: request.url, reason: "only http, https and file URLs are read")
        }
        return try await engine.perform(request, timeout: timeout)
    }
}

extension URLSessionTransport {
    /// One `URLSession` and its delegate: the transfers in flight, each with its body so far,
    /// its cap and its deadline. Invalidated (which releases the delegate) when the transport
    /// goes.
    ///
    /// `@unchecked Sendable`: `transfers` is read and written only under `lock`; URLSession
    /// calls the delegate on its own queue.
    final class Engine: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private var session: URLSession!
        private let lock = NSLock()
        private var transfers: [Int: Transfer] = [:]

        init(timeout: TimeInterval) {
            super.init()
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            configuration.urlCredentialStorage = nil
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout
            session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        }

        deinit {
            session.finishTasksAndInvalidate()
        }

        /// One request in flight.
        final class Transfer {
            let request: TransportRequest
            let continuation: CheckedContinuation<TransportResponse, any Error>
            var response: HTTPURLResponse?
            var body = Data()
            var redirects = 0
            /// Why the client stopped the transfer itself (a cap, the deadline, a loop).
            var failure: ClientError?
            var finished = false

            init(request: TransportRequest, continuation: CheckedContinuation<TransportResponse, any Error>) {
                self.request = request
                self.continuation = continuation
            }
        }

        func perform(_ request: TransportRequest, timeout: TimeInterval) async throws -> TransportResponse {
            var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
            if let etag = request.ifNoneMatch { urlRequest.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            urlRequest.httpMethod = request.method
            for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
            urlRequest.httpBody = request.body
            let task = session.dataTask(with: urlRequest)
            let identifier = task.taskIdentifier
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    lock.withLock { transfers[identifier] = Transfer(request: request, continuation: continuation) }
                    if Task.isCancelled {
                        stop(identifier, task: task, because: .cancelled(url: request.url))
                        return
                    }
                    let deadline = DispatchTime.now() + .milliseconds(Int(min(timeout, 86_400) * 1000))
                    DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
                        self?.stop(identifier, task: task, because: .deadline(url: request.url, seconds: timeout))
                    }
                    task.resume()
                }
            } onCancel: {
                self.stop(identifier, task: task, because: .cancelled(url: request.url))
            }
        }

        /// Cancels a transfer still in flight, remembering why (the first reason stands).
        private func stop(_ identifier: Int, task: URLSessionTask, because reason: ClientError) {
            let stopping = lock.withLock { () -> Bool in
                guard let transfer = transfers[identifier], !transfer.finished, transfer.failure == nil else { return false }
                transfer.failure = reason
                return true
            }
            if stopping { task.cancel() }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            let allowed = lock.withLock { () -> Bool in
                guard let transfer = transfers[dataTask.taskIdentifier] else { return false }
                transfer.response = response as? HTTPURLResponse
                transfer.body = Data()
                if let limit = transfer.request.maxBytes, response.expectedContentLength > Int64(limit) {
                    transfer.failure = .tooLarge(url: transfer.request.url, limit: limit)
                    return false
                }
                return true
            }
            completionHandler(allowed ? .allow : .cancel)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let tooLarge = lock.withLock { () -> Bool in
                guard let transfer = transfers[dataTask.taskIdentifier], transfer.failure == nil else { return false }
                if let limit = transfer.request.maxBytes, transfer.body.count + data.count > limit {
                    transfer.failure = .tooLarge(url: transfer.request.url, limit: limit)
                    transfer.body = Data()
                    return true
                }
                transfer.body.append(data)
                return false
            }
            if tooLarge { dataTask.cancel() }
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            let follow = lock.withLock { () -> Bool in
                guard let transfer = transfers[task.taskIdentifier] else { return false }
                transfer.redirects += 1
                let scheme = request.url?.scheme?.lowercased()
                if scheme != "http" && scheme != "https" {
                    transfer.failure = .transport(url: transfer.request.url, reason: "redirected to \(request.url?.absoluteString ?? "nothing"), which is not http or https")
                    return false
                }
                if transfer.redirects > URLSessionTransport.maximumRedirects {
                    transfer.failure = .transport(url: transfer.request.url, reason: "more than \(URLSessionTransport.maximumRedirects) redirects (a loop?)")
                    return false
                }
                return true
            }
            if follow { completionHandler(request) } else { completionHandler(nil); task.cancel() }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let transfer = lock.withLock({ () -> Transfer? in
                let transfer = transfers.removeValue(forKey: task.taskIdentifier)
                transfer?.finished = true
                return transfer
            }) else { return }
            let url = transfer.request.url
            if let failure = transfer.failure {
                transfer.continuation.resume(throwing: failure)
            } else if let error {
                transfer.continuation.resume(throwing: ClientError.transport(url: url, reason: Self.plainWords(error)))
            } else if let response = transfer.response {
                transfer.continuation.resume(
                    returning: TransportResponse(
                        status: response.statusCode, body: transfer.body, etag: response.value(forHTTPHeaderField: "ETag"),
                        retryAfter: response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }))
            } else {
                transfer.continuation.resume(throwing: ClientError.transport(url: url, reason: "no HTTP answer"))
            }
        }

        /// A URL loading error as a person would put it (Foundation's own text on Linux is
        /// "The operation could not be completed. (NSURLErrorDomain error -1001.)").
        static func plainWords(_ error: any Error) -> String {
            guard let error = error as? URLError else { return error.localizedDescription }
            switch error.code {
            case .timedOut: return "the server stopped answering (timed out)"
            case .cannotConnectToHost: return "cannot connect to the server (connection refused)"
            case .cannotFindHost, .dnsLookupFailed: return "the host name cannot be resolved"
            case .networkConnectionLost: return "the connection was closed before the answer was complete"
            case .notConnectedToInternet: return "no network connection"
            case .badServerResponse: return "the server's answer is not valid HTTP"
            case .httpTooManyRedirects, .redirectToNonExistentLocation: return "the server's redirects lead nowhere"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
                .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                return "the TLS connection cannot be trusted or set up"
            case .cancelled: return "cancelled"
            case .dataLengthExceedsMaximum: return "the answer is larger than allowed"
            case .cannotDecodeContentData, .cannotDecodeRawData: return "the answer's compressed body cannot be decoded"
            default: return "\(error.localizedDescription) (URL error \(error.code.rawValue))"
            }
        }
    }
}
