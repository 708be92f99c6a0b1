import FeedBasics

/// Receives one hop's headers and body from libcurl's callbacks, and the address check.
///
/// Body size is capped here as well as by `CURLOPT_MAXFILESIZE`, because libcurl 7.88 only
/// checks `Content-Length`: a chunked or close-delimited response, or a small gzip that
/// inflates to gigabytes, is stopped by this count of decompressed bytes.
final class TransferSink {
    let limit: Int
    let policy: NetworkPolicy
    private(set) var body: [UInt8] = []
    private(set) var exceededLimit = false
    /// The address refused by the policy, when that is why the connection failed.
    var blockedAddress: String?
    /// Headers of the last response only (an interim `100 Continue`'s are dropped).
    private(set) var headers: [(name: String, value: String)] = []

    let stop: StopSignal?
    /// The transfer was aborted because the run was told to stop.
    private(set) var interrupted = false

    init(limit: Int, policy: NetworkPolicy, stop: StopSignal? = nil) {
        self.limit = limit
        self.policy = policy
        self.stop = stop
    }

    /// Called by libcurl about once a second even when nothing arrives; non-zero aborts.
    func shouldAbort() -> Bool {
        guard let stop, stop.isRaised else { return false }
        interrupted = true
        return true
    }

    /// Bytes accepted; fewer than offered aborts the transfer.
    func receiveBody(_ data: UnsafeRawBufferPointer) -> Int {
        guard body.count + data.count <= limit else {
            exceededLimit = true
            return 0
        }
        body.append(contentsOf: data)
        return data.count
    }

    func receiveHeaderLine(_ data: UnsafeRawBufferPointer) {
        let line = String(decoding: data, as: UTF8.self).trimmingASCII(" \t\r\n")
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            body.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingASCII(" \t").lowercased()
        let value = line[line.index(after: colon)...].trimmingASCII(" \t")
        headers.append((name, value))
    }

    func header(_ name: String) -> String? {
        headers.last { $0.name == name }?.value
    }
}
