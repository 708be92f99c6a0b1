import FeedBasics
import FeedStorage
import FeedPipeline
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `all_feeds.sqlite` and `feed_<id>.sqlite`: the names the original z_rss client syncs,
/// published beside the versioned files for clients that know nothing of the manifest.
///
/// Each stable name is a hard link to the current versioned snapshot, swapped in with one
/// `rename`: a reader opening it gets the old snapshot or the new one, whole, never a mix.
/// The snapshots are never written after they are renamed into place, so sharing an inode
/// with the versioned file cannot tear either. The links are brought up to date on every
/// run, even one that changed nothing, so a run interrupted between the manifest and the
/// links is healed by the next. Feeds are linked before the catalog, so a client that reads
/// a feed id from `all_feeds.sqlite` finds its `feed_<id>.sqlite`; a removed feed's name goes
/// only after the catalog that no longer lists it.
enum StableNames {
    /// Names the publisher owns: those in `previous.stableFiles`. A file already at a stable
    /// name that the publisher did not write (an operator's own `feed_3.sqlite`) stops the
    /// publication before anything is written: it is never replaced or removed.
    static func refuseForeign(names: [String], previous: Manifest, in directory: String) throws(PipelineError) {
        let owned = Set(previous.stableFiles ?? [])
        for name in names where !owned.contains(name) && FileManager.default.fileExists(atPath: directory + "/" + name) {
            throw .storage(StorageError(
                path: directory + "/" + name,
                message: "exists in the output directory but was not published by rss-publish; move it away, it would be replaced"))
        }
    }

    /// Every stable name a manifest serves, feeds first.
    static func names(of manifest: Manifest) -> [String] {
        manifest.feeds.map(\.name) + (manifest.catalog.map { [$0.name] } ?? [])
    }

    /// Points every stable name at its current snapshot and removes the names of feeds no
    /// longer published. Returns how many names changed.
    static func sync(_ manifest: Manifest, in directory: String) throws(PipelineError) -> Int {
        var changed = 0
        let targets = manifest.feeds.map { ($0.name, $0.file) } + (manifest.catalog.map { [($0.name, $0.file)] } ?? [])
        for (name, file) in targets where try link(name, to: file, in: directory) { changed += 1 }
        let current = Set(targets.map(\.0))
        for name in manifest.stableFiles ?? [] where !current.contains(name) {
            if PublishedFiles.remove([name], in: directory) == 1 { changed += 1 }
        }
        return changed
    }

    /// Makes `name` the same file as `file`, unless it already is.
    private static func link(_ name: String, to file: String, in directory: String) throws(PipelineError) -> Bool {
        let path = directory + "/" + name
        let target = directory + "/" + file
        var targetInfo = stat()
        var nameInfo = stat()
        guard stat(target, &targetInfo) == 0 else { return false }
        if lstat(path, &nameInfo) == 0, nameInfo.st_ino == targetInfo.st_ino, nameInfo.st_dev == targetInfo.st_dev { return false }
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        do throws(FileError) {
            if Glibc.link(target, temporary) == 0 {
                try DurableFiles.rename(temporary, to: path)
            } else {
                // A file system without hard links gets a copy, written in full, synced and renamed.
                guard let bytes = FileManager.default.contents(atPath: target) else {
                    throw FileError(path: target, message: "cannot read to publish as \(name)")
                }
                try DurableFiles.write([UInt8](bytes), to: path)
            }
        } catch {
            throw .storage(StorageError(error))
        }
        return true
    }
}
