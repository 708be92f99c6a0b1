import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real S3-compatible server on 127.0.0.1 for one test: SeaweedFS (`weed mini`), which
/// checks SigV4 signatures and `x-amz-checksum-sha256` and answers conditional writes, as
/// object storage does. `start()` picks free ports, writes an identities file so only the
/// credentials below are accepted, waits until a signed request makes the bucket, and `stop()`
/// (or deinit) ends the process and removes its data directory. What SeaweedFS does and does
/// not check is in docs/s3-object-storage.md.
///
/// `Scripts/setup-debian` installs the pinned `weed` under the user's cache; a test that needs
/// it is skipped where it is missing (``shouldRun``), except where the S3 tests are required
/// (CI: `CI` or `FEEDMILL_REQUIRE_S3` set, as `.ci/run` does): there it runs and fails with
/// `S3TestServer.Unavailable`. The bucket is made with the
/// `curl` command (`--aws-sigv4`), so this support code signs nothing itself.
///
/// `@unchecked Sendable`: every stored property is a constant but `process`, which only
/// `stop()` changes, under `lock`.
public final class S3TestServer: @unchecked Sendable {
    /// Why no server could be started: the test skips (tool missing) or fails (did not start).
    public enum Unavailable: Error, CustomStringConvertible {
        case toolMissing(String)
        case didNotStart(String)

        public var description: String {
            switch self {
            case .toolMissing(let what): "no S3 test server: \(what) (Scripts/setup-debian installs it)"
            case .didNotStart(let why): "the S3 test server did not start: \(why)"
            }
        }
    }

    public let endpoint: String
    public let bucket: String
    public let region = "us-east-1"
    public let accessKeyID = "feedmill-test-key"
    public let secretAccessKey = "feedmill-test-secret"
    public let dataDirectory: URL
    /// The server's own version line (`weed version`), for reports.
    public let version: String

    private var process: Process?
    private let ports: [Int]
    private let lock = NSLock()

    /// The standard AWS variables that point a client at this server with its credentials.
    public var environment: [String: String] {
        [
            "AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey,
            "AWS_REGION": region, "AWS_ENDPOINT_URL": endpoint,
        ]
    }

    /// Whether the S3 tests must run here even without `weed` (and then fail): under CI (`CI`
    /// set to anything but `0`/`false`) or with `FEEDMILL_REQUIRE_S3=1`.
    public static var isRequired: Bool { TestRequirement.isRequired(by: "FEEDMILL_REQUIRE_S3") }

    /// For `.enabled(if:)`: a test needing the server runs where `weed` is, or where it is
    /// required (and then fails without it, rather than being skipped).
    public static var shouldRun: Bool { isRequired || weedExecutable() != nil }

    /// The bucket as an anonymous HTTP client (an app, `rss-pull`) reads it, with a trailing
    /// slash; readable only when the server was started with `anonymousRead`.
    public var publicBaseURL: String { "\(endpoint)/\(bucket)/" }

    /// The pinned version `Scripts/setup-debian` installs, found where it puts it, or
    /// `FEEDMILL_TEST_WEED`, or `weed` on `PATH`.
    public static func weedExecutable() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["FEEDMILL_TEST_WEED"], !chosen.isEmpty { return chosen }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".cache")
        let installed = "\(cache)/feedmill/seaweedfs-4.48/bin/weed"
        if FileManager.default.isExecutableFile(atPath: installed) { return installed }
        return InstalledTool.exists("weed") ? "weed" : nil
    }

    /// Starts a server with `bucket` made. A port taken between choosing it and the server
    /// binding it costs one more try with fresh ports.
    /// With `anonymousRead`, anyone may GET (not list, not write) the bucket's objects over plain
    /// HTTP, as a public bucket behind a CDN serves apps.
    public static func start(bucket: String = "feedmill-test", anonymousRead: Bool = false) throws -> S3TestServer {
        guard let weed = weedExecutable() else { throw Unavailable.toolMissing("weed (SeaweedFS) not found") }
        guard InstalledTool.exists("curl") else { throw Unavailable.toolMissing("curl not found") }
        var lastError = Unavailable.didNotStart("no attempt")
        for _ in 0..<3 {
            do { return try S3TestServer(weed: weed, bucket: bucket, anonymousRead: anonymousRead) } catch let error as Unavailable { lastError = error }
        }
        throw lastError
    }

    private init(weed: String, bucket: String, anonymousRead: Bool) throws {
        self.bucket = bucket
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("feedmill-s3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        version = Self.versionLine(weed)
        ports = try Self.freePorts(10)
        endpoint = "http://127.0.0.1:\(ports[6])"
        do {
            let identities = dataDirectory.appendingPathComponent("s3.json")
            try Self.identitiesJSON(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, anonymousReadOf: anonymousRead ? bucket : nil)
                .write(to: identities)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [weed] + Self.arguments(directory: dataDirectory.path, identities: identities.path, ports: ports)
            let log = dataDirectory.appendingPathComponent("weed.log")
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw Unavailable.didNotStart("cannot write \(log.path)") }
            let logHandle = try FileHandle(forWritingTo: log)
            process.standardOutput = logHandle
            process.standardError = logHandle
            try process.run()
            try? logHandle.close()
            self.process = process
            try waitUntilBucketExists(process: process, log: log)
        } catch {
            stop()
            throw error as? Unavailable ?? Unavailable.didNotStart("\(error)")
        }
    }

    deinit { stop() }

    /// Ends the server (SIGTERM; SIGKILL when it has not exited after 10 s: it takes a few
    /// seconds to close its stores) and removes its data directory.
    public func stop() {
        lock.lock()
        let running = process
        process = nil
        lock.unlock()
        if let running, running.isRunning {
            running.terminate()
            let deadline = Date().addingTimeInterval(10)
            while running.isRunning, Date() < deadline { usleep(50_000) }
            if running.isRunning { kill(running.processIdentifier, SIGKILL) }
            running.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: dataDirectory)
        removeLeftoverSockets()
    }

    /// `weed mini` makes Unix sockets for its gRPC ports at a fixed place,
    /// `/tmp/seaweedfs-SERVICE-grpc-PORT.sock`, and leaves some behind. The ports were this
    /// server's alone while it ran, so these names are its own; only sockets are removed.
    private func removeLeftoverSockets() {
        for service in ["master", "volume", "filer", "s3", "admin"] {
            for port in ports {
                let path = "/tmp/seaweedfs-\(service)-grpc-\(port).sock"
                var status = stat()
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { continue }
                unlink(path)
            }
        }
    }

    /// Makes another bucket (a test of a missing bucket needs the server to have none by that name).
    @discardableResult
    public func makeBucket(_ name: String) throws -> Int {
        try signedCurl(["-X", "PUT", "\(endpoint)/\(name)"])
    }

    /// Runs `curl` with this server's credentials, signing with SigV4 (the payload unsigned),
    /// and returns the HTTP status (0 when nothing answered).
    public func signedCurl(_ arguments: [String]) throws -> Int {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = [
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
            "--aws-sigv4", "aws:amz:\(region):s3", "--user", "\(accessKeyID):\(secretAccessKey)",
            "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD",
        ] + arguments
        let output = Pipe()
        curl.standardOutput = output
        curl.standardError = FileHandle.nullDevice
        try curl.run()
        let status = output.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return Int(String(decoding: status, as: UTF8.self)) ?? 0
    }

    private func waitUntilBucketExists(process: Process, log: URL) throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard process.isRunning else {
                throw Unavailable.didNotStart("weed exited (\(process.terminationStatus)): \(Self.tail(of: log))")
            }
            // 409: it exists already (a retried request whose first answer was lost).
            if [200, 409].contains(try makeBucket(bucket)) { return }
            usleep(100_000)
        }
        throw Unavailable.didNotStart("no bucket after 60 s: \(Self.tail(of: log))")
    }

    /// Every listening port `weed mini` opens, chosen here so several servers (and other
    /// test runs on the machine) never meet; the admin UI, WebDAV, Iceberg and Lance are off.
    private static func arguments(directory: String, identities: String, ports: [Int]) -> [String] {
        [
            "mini", "-dir=\(directory)", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            "-s3.config=\(identities)", "-s3.autoCreateBucket=false",
            "-admin.ui=false", "-webdav=false", "-s3.port.iceberg=0", "-s3.port.lance=0", "-master.telemetry=false",
            "-master.port=\(ports[0])", "-master.port.grpc=\(ports[1])",
            "-volume.port=\(ports[2])", "-volume.port.grpc=\(ports[3])",
            "-filer.port=\(ports[4])", "-filer.port.grpc=\(ports[5])",
            "-s3.port=\(ports[6])", "-s3.port.grpc=\(ports[7])",
            "-admin.port=\(ports[8])", "-admin.port.grpc=\(ports[9])",
            // Its sockets inside the data directory, so removing it leaves nothing in /tmp.
            "-s3.localSocket=\(directory)/s3.sock", "-filer.localSocket=\(directory)/filer.sock",
        ]
    }

    /// One identity with every action: SeaweedFS then refuses any other key or a wrong secret.
    /// SeaweedFS's `anonymous` identity, when given, may only read the objects of one bucket.
    private static func identitiesJSON(accessKeyID: String, secretAccessKey: String, anonymousReadOf bucket: String?) throws -> Data {
        let identity: [String: Any] = [
            "name": "feedmill-test",
            "credentials": [["accessKey": accessKeyID, "secretKey": secretAccessKey]],
            "actions": ["Admin", "Read", "Write", "List", "Tagging"],
        ]
        var identities = [identity]
        if let bucket { identities.append(["name": "anonymous", "actions": ["Read:\(bucket)"]]) }
        return try JSONSerialization.data(withJSONObject: ["identities": identities])
    }

    /// Ports free now: all held open together so they differ, then released for the server.
    private static func freePorts(_ count: Int) throws -> [Int] {
        var held: [(descriptor: Int32, port: Int)] = []
        defer { held.forEach { close($0.descriptor) } }
        for _ in 0..<count { held.append(try LoopbackListener.open()) }
        return held.map(\.port)
    }

    private static func versionLine(_ weed: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [weed, "version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").first.map(String.init) ?? "unknown"
    }

    private static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return String(text.suffix(600))
    }
}
