import FeedPublishing
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What a target learns while it runs, shared by its copies (it is a struct): the names
/// listed, the lock held, the scratch directory.
final class TargetState: Sendable {
    private struct Contents {
        /// Names listed with the lock, and written since, with their ETags (nil: not known,
        /// as for an upload refused because the name was there).
        var listed: [String: String?]?
        weak var hold: ObjectStorageLockHold?
        var scratch: String?
        var scratchCount = 0
        var uploads = 0
        var expectedRoot: RootVersion?
    }

    private let contents = Mutex(Contents())

    func listed(_ names: [(String, String)]) {
        contents.withLock { $0.listed = Dictionary(names.map { ($0.0, Optional($0.1)) }, uniquingKeysWith: { $1 }) }
    }
    /// nil: nothing listed yet.
    func isListed(_ name: String) -> Bool? { contents.withLock { $0.listed.map { $0[name] != nil } } }
    /// nil: unknown (nothing listed, or its ETag unknown); .some(nil): known absent.
    func knownETag(_ name: String) -> String?? {
        contents.withLock { contents -> String?? in
            guard let listed = contents.listed else { return nil }
            guard let entry = listed[name] else { return .some(nil) }
            guard let etag = entry, !etag.isEmpty else { return nil }
            return .some(etag)
        }
    }
    var listedNames: [String: String?]? { contents.withLock { $0.listed } }
    func add(_ name: String, etag: String?) { contents.withLock { if $0.listed != nil { $0.listed?[name] = .some(etag) } } }
    func remove(_ name: String) { contents.withLock { _ = $0.listed?.removeValue(forKey: name) } }
    func hold(_ hold: ObjectStorageLockHold) { contents.withLock { $0.hold = hold } }
    func currentHold() -> ObjectStorageLockHold? { contents.withLock { $0.hold } }
    func countUpload() { contents.withLock { $0.uploads += 1 } }
    var uploads: Int { contents.withLock { $0.uploads } }
    var expectedRoot: RootVersion? {
        get { contents.withLock { $0.expectedRoot } }
        set { contents.withLock { $0.expectedRoot = newValue } }
    }

    struct ScratchError: Error, CustomStringConvertible {
        let description: String
    }

    func scratchPath() throws(ScratchError) -> String {
        try contents.withLock { (contents) throws(ScratchError) -> String in
            if contents.scratch == nil {
                var template = Array((NSTemporaryDirectory() + "/feedmill-publish-XXXXXX").utf8CString)
                guard let made = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
                    throw ScratchError(description: "cannot make a scratch directory: \(String(cString: strerror(errno)))")
                }
                contents.scratch = String(cString: made)
            }
            contents.scratchCount += 1
            return "\(contents.scratch ?? "")/\(contents.scratchCount)"
        }
    }

    func removeScratch() {
        guard let scratch = contents.withLock({ contents -> String? in
            defer { contents.scratch = nil }
            return contents.scratch
        }) else { return }
        try? FileManager.default.removeItem(atPath: scratch)
    }

    deinit { removeScratch() }
}
