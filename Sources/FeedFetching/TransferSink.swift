import FeedBasics

/// Receives one hop's headers and body from libcurl's callbacks, and the address check.
///
/// A successful (2xx) hop's body goes on to the fetch's ``BodyStream``; the body of a redirect
/// or an error is only counted. Body size is capped here as well as by `CURLOPT_MAXFILESIZE`,
/// because libcurl 7.88 only checks `Content-Length`: a chunked or close-delimited response,
/// or a small gzip that inflates to gigabytes, is stopped by this count of decompressed bytes.
final class TransferSink {
    let url: String
    let stream: BodyStream
    let policy: NetworkPolicy
    /// The address refused by the policy, when that is why the connection failed.
    var blockedAddress: String?
    /// Headers of the last response only (an interim `100 Continue`'s are dropped).
    private(set) var headers: [(name: String, value: String)] = []
    /// The status line's code; `nil` for a transfer without one (`file://`).
    private(set) var status: Int?
    private var otherBodyBytes = 0
    private var bodyBegun = false
    private(set) var exceededLimit = false
    /// How the server broke HTTP, when that is why the transfer was stopped.
    private(set) var protocolViolation: String?
    /// The hop's `Content-Length` values as numbers, to catch two that differ.
    private var contentLengths: Set<UInt64> = []

    let stop: StopSignal?
    /// The transfer was aborted because the run was told to stop.
    private(set) var interrupted = false

    init(url: String, stream: BodyStream, policy: NetworkPolicy, stop: StopSignal? = nil) {
        self.url = url
        self.stream = stream
        self.policy = policy
        self.stop = stop
    }

    /// Any body byte arrived.
    var receivedBody: Bool { bodyBegun || otherBodyBytes > 0 }

    /// Called by libcurl about once a second even when nothing arrives; non-zero aborts.
    func shouldAbort() -> Bool {
        guard let stop, stop.isRaised else { return false }
        interrupted = true
        return true
    }

    /// Bytes accepted; fewer than offered aborts the transfer.
    func receiveBody(_ data: UnsafeRawBufferPointer) -> Int {
        guard status.map({ (200..<300).contains($0) }) ?? true else {
            otherBodyBytes += data.count
            if otherBodyBytes > stream.limit { exceededLimit = true }
            return exceededLimit ? 0 : data.count
        }
        if !bodyBegun {
            bodyBegun = true
            let source = BodySource(
                url: url, status: status ?? 200, contentType: header("content-type"),
                etag: header("etag"), lastModified: header("last-modified"))
            stream.begin(source, contentEncoding: header("content-encoding"))
        }
        guard stream.receive(data) else {
            exceededLimit = stream.exceededLimit
            return 0
        }
        return data.count
    }

    /// One header line; `false` stops the transfer (``protocolViolation`` says why).
    func receiveHeaderLine(_ data: UnsafeRawBufferPointer) -> Bool {
        let line = String(decoding: data, as: UTF8.self).trimmingASCII(" \t\r\n")
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            contentLengths.removeAll()
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
            return true
        }
        guard let colon = line.firstIndex(of: ":") else { return true }
        let name = line[..<colon].trimmingASCII(" \t").lowercased()
        let value = line[line.index(after: colon)...].trimmingASCII(" \t")
        headers.append((name, value))
        if name == "content-length" { return checkContentLength(value) }
        return true
    }

    /// RFC 9112 §6.3: `Content-Length` values that differ (two headers, or a list such as
    /// `5, 6`) leave the body's length unknown, an unrecoverable error; the same value
    /// repeated may be taken. libcurl 7.88 takes the last header, or a list's first number,
    /// and reads on, so the check is Feedmill's.
    private func checkContentLength(_ value: String) -> Bool {
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            let number = item.trimmingASCII(" \t")
            guard !number.isEmpty, number.utf8.allSatisfy({ (48...57).contains($0) }), let length = UInt64(number) else {
                protocolViolation = "sent Content-Length \"\(value)\", which is not a valid length"
                return false
            }
            contentLengths.insert(length)
        }
        guard contentLengths.count > 1 else { return true }
        let values = contentLengths.sorted().map(String.init).joined(separator: " and ")
        protocolViolation = "sent conflicting Content-Length values (\(values)): the body's length cannot be known"
        return false
    }

    func header(_ name: String) -> String? {
        headers.last { $0.name == name }?.value
    }
}
