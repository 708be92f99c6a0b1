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
