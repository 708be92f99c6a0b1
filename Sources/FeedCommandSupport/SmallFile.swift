import FeedBasics

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a small file Feedmill reads whole (the configuration file, the metrics file it
/// is about to replace), read only from a plain file of a sane size. Why not
/// `FileManager.contents(atPath:)`: it calls a directory, a FIFO or a device "Input/output
/// error (EIO)", and has no limit.
enum SmallFile {
    /// Larger than any configuration or metrics file by a wide margin.
    static let limit = 1 << 20

    /// Why the bytes were not read.
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The system refused (`errno`): permission, not there, an I/O error.
        case system(Int32)
        /// A directory, a FIFO, a device or a socket.
        case notAFile(kind: String)
        /// More than ``limit`` bytes.
        case tooLarge

        var description: String {
            switch self {
            case .system(let code): return SystemError.describe(code)
            case .notAFile(let kind): return "it is \(kind), not a file"
            case .tooLarge: return "it is larger than \(SmallFile.limit / 1_048_576) MiB, which no configuration is"
            }
        }

        /// 77 when it may not be read (a permission to fix), else 66 (no usable input).
        var exitStatus: Int32 {
            if case .system(let code) = self, SystemError.isPermission(code) { return ExitStatus.noPermission }
            return ExitStatus.noInput
        }
    }

    /// Opens without waiting (a FIFO opens at once with `O_NONBLOCK`), then reads only what
    /// `fstat` shows to be a regular file.
    static func read(_ path: String) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.system(errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.system(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.notAFile(kind: "a directory"))
        case S_IFIFO: return .failure(.notAFile(kind: "a FIFO"))
        case S_IFSOCK: return .failure(.notAFile(kind: "a socket"))
        default: return .failure(.notAFile(kind: "a device"))
        }
        guard info.st_size <= limit else { return .failure(.tooLarge) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.system(errno))
            }
            if count == 0 { return .success(bytes) }
            bytes += buffer[0..<count]
            // A file that grows while it is read is cut off at the limit, not read forever.
            if bytes.count > limit { return .failure(.tooLarge) }
        }
    }
}
