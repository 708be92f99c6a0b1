import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server on 127.0.0.1 that answers each request with exactly the bytes it is given, then
/// closes the connection: for replies that break HTTP (two `Content-Length` headers, no
/// status line, thousands of `Set-Cookie` lines), which ``TestHTTPServer`` is too correct to
/// write.
///
/// `@unchecked Sendable`: its stored properties are immutable; `running` is read and written
/// only under `lock`, by the server and its accept thread.
public final class RawTestServer: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let state: State

    /// `answer` gets the request's path and returns what to send back.
    public init(answer: @escaping @Sendable (_ path: String) -> [UInt8]) throws {
        (listener, port) = try LoopbackListener.open()
        let state = State(listener: listener, answer: answer)
        self.state = state
        Thread { state.acceptLoop() }.start()
    }

    deinit {
        stop()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func stop() {
        guard state.lock.withLock({ () -> Bool in defer { state.running = false }; return state.running }) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// What the accept thread shares with the server. `@unchecked Sendable`: `running` is
    /// guarded by `lock`, the rest is immutable.
    private final class State: @unchecked Sendable {
        let listener: Int32
        let answer: @Sendable (String) -> [UInt8]
        let lock = NSLock()
        var running = true

        init(listener: Int32, answer: @escaping @Sendable (String) -> [UInt8]) {
            self.listener = listener
            self.answer = answer
        }

        func acceptLoop() {
            LoopbackListener.acceptLoop(listener, running: { lock.withLock { running } }) { connection in
                LoopbackListener.serving(connection) { self.serve(connection) }
            }
        }

        /// Reads the request's head, writes the answer in one go, and closes.
        private func serve(_ connection: Int32) {
            guard let head = LoopbackListener.readHead(connection) else { return }
            let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
            guard LoopbackListener.sendAll(connection, answer(requestLine.count > 1 ? String(requestLine[1]) : "/")) else { return }
            shutdown(connection, Int32(SHUT_WR))
        }
    }
}
