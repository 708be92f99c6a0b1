import Foundation

/// Compresses bytes with the system's `gzip`, so that compression tests use a real encoder.
public func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-c", "-n"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread {
        input.fileHandleForWriting.write(Data(bytes))
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let compressed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return [UInt8](compressed)
}

/// The `deflate` content coding of `bytes`: a zlib stream (RFC 1950) or, with
/// `zlibHeader: false`, the raw deflate data some servers send instead. Cut from `gzip -n`'s
/// output (a 10-byte header, the deflate data, an 8-byte trailer), so a real encoder made it.
public func deflated(_ bytes: [UInt8], zlibHeader: Bool = true) throws -> [UInt8] {
    let gzip = try gzipped(bytes)
    let raw = Array(gzip[10..<(gzip.count - 8)])
    guard zlibHeader else { return raw }
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in bytes {
        a = (a + UInt32(byte)) % 65_521
        b = (b + a) % 65_521
    }
    let adler = b << 16 | a
    return [0x78, 0x9C] + raw + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
}

/// A scratch directory removed when the test that made it ends.
public final class TemporaryDirectory {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("feedmill-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func write(_ name: String, _ contents: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
