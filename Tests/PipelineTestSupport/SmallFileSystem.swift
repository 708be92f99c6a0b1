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

/// A small file system mounted for one test (tmpfs with a size, an inode count, read-only),
/// so that "out of inodes", "full" and "read-only" are the kernel's answers, not a mock's.
/// Mounting needs root and a kernel that allows it; where it is refused the test says so and
/// is skipped.
public final class SmallFileSystem {
    public let path: String

    public init?(options: String) {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("feedmill-fs-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard Self.mount(["-t", "tmpfs", "-o", options, "tmpfs", path]) else {
            try? FileManager.default.removeItem(atPath: path)
            return nil
        }
    }

    /// Mounts it again with new options (`remount,ro`).
    public func remount(_ options: String) -> Bool { Self.mount(["-o", "remount," + options, path]) }

    deinit {
        _ = Self.run("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func mount(_ arguments: [String]) -> Bool { run("/bin/mount", arguments) }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    public static var available: Bool { SmallFileSystem(options: "size=64k") != nil }
}

/// Mistakes an operator makes, and what the commands say of them: the cause, in one line.
