import Foundation

/// A real HTTPS server on 127.0.0.1 with a self-signed certificate made when the test starts
/// (the `openssl` command), served by Python's `ssl` and `http.server` (a child process): TLS
/// as libcurl meets it, with nothing from outside the machine.
///
/// Every request gets `body` with status 200. The certificate is for `IP:127.0.0.1`, so it
/// verifies once it is trusted (``certificateFile``, or ``hashedDirectory()``).
public final class TestTLSServer {
    public let port: Int
    /// The self-signed certificate (PEM): a bundle that trusts this server alone.
    public let certificateFile: String
    private let directory: TemporaryDirectory
    private let process: Process
    /// The server's standard input, open as long as this object: the server ends when it closes.
    private let input = Pipe()

    public enum Failure: Error, CustomStringConvertible {
        case command(String, Int32, String)
        case noPort(String)

        public var description: String {
            switch self {
            case .command(let name, let status, let output): return "\(name) exited \(status): \(output)"
            case .noPort(let output): return "the TLS server did not start: \(output)"
            }
        }
    }

    /// The programs it runs are installed (tests that need it are skipped otherwise).
    public static var canRun: Bool { InstalledTool.exists("openssl") && InstalledTool.exists("python3") }

    public init(body: String) throws {
        directory = try TemporaryDirectory()
        let root = directory.url.path
        certificateFile = root + "/certificate.pem"
        _ = try Self.run("openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", root + "/key.pem", "-out", certificateFile,
        ])
        let script = try directory.write("serve.py", Self.script)
        let feed = try directory.write("body", body)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, certificateFile, root + "/key.pem", feed]
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The script prints its port once it listens.
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 10 { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        guard let port = Int(text) else {
            try? input.fileHandleForWriting.close()
            process.terminate()
            throw Failure.noPort(text)
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }

    public var baseURL: String { "https://127.0.0.1:\(port)" }

    /// A directory holding the certificate under its subject hash (`<hash>.0`), as
    /// `SSL_CERT_DIR` and `CURLOPT_CAPATH` expect.
    public func hashedDirectory() throws -> String {
        let hash = try Self.run("openssl", ["x509", "-hash", "-noout", "-in", certificateFile])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let path = directory.url.path + "/trusted"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path + "/\(hash).0")
        try FileManager.default.copyItem(atPath: certificateFile, toPath: path + "/\(hash).0")
        return path
    }

    /// Runs a command to its end; its standard output.
    private static func run(_ command: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure.command(command, process.terminationStatus, stderr) }
        return stdout
    }

    private static let script = #"""
        import http.server, os, signal, ssl, sys, threading
        # The test's thread blocks SIGTERM, and a child inherits that: unblocked, so that
        # terminate() ends it; and it ends by itself when the test process goes (stdin closes).
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        certificate, key, body_file = sys.argv[1:4]
        body = open(body_file, "rb").read()
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/rss+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        # The handshake happens in each request's thread, so a client that gives up on it
        # (an untrusted certificate) never holds up the next.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
