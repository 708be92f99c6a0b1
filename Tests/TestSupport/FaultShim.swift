import Foundation

/// `Scripts/faults/shim.c` built once per test process: loaded with `LD_PRELOAD`, it fails
/// the N-th file operation under a path with a chosen errno (its header says how).
public enum FaultShim {
    public static let library: Result<String, any Error> = Result {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Scripts/faults/shim.c").standardized.path
        let library = FileManager.default.temporaryDirectory.appendingPathComponent("feedmill-fault-shim-\(getpid()).so").path
        let compiler = ["/usr/bin/cc", "/opt/swift/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/bin/cc"
        let built = try runToCompletion(compiler, ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"])
        guard built.status == 0 else { throw NotBuilt(message: "\(source) does not compile: \(built.stderr)") }
        return library
    }

    public struct NotBuilt: Error { public let message: String }
}
