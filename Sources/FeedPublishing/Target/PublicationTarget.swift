import FeedBasics
import FeedStorage

/// The version of the root (`manifest.json`) a publication read, which its commit expects to
/// still be there: `nil` when there was none. A directory gives the SHA-256 of the bytes
/// read; object storage the ETag.
public struct RootVersion: Sendable, Equatable {
    public let token: String?

    public init(token: String?) {
        self.token = token
    }

    /// No root yet.
    public static let absent = RootVersion(token: nil)
}

/// Where a publication goes: what ``PublishRun`` needs of it, and nothing more. The local
/// publish directory is the first kind (``DirectoryTarget``); object storage is another, and
/// ``PublishRun`` does not change.
///
/// The promises, whatever the kind:
/// - a file is put whole: a reader gets the old bytes at a name or the new ones, never a part;
/// - immutable names (``PublishedName/isImmutable``: content-addressed snapshots, deltas,
///   records) are put once and never replaced (``putImmutable(_:as:)``: a name already there
///   holds the same bytes, so the put is skipped, which is how a killed publication resumes
///   without writing again); the pointers, the pages, the stable names (``alias(_:to:)``) and
///   the intent are replaced with ``put(_:as:)``; the root only by ``commitRoot(_:as:expecting:)``,
///   last, and only over the version the publication read;
/// - ``delete(_:)`` is only ever asked for names the publisher gave (``PublishedName``) and
///   recorded as its own, and removes a plain file only: never a link, a directory, or
///   anything it cannot be sure of, so a file Feedmill did not create is never deleted;
/// - ``lock(for:lease:)`` makes the publication exclusive for its shard;
/// - an immutable file and a pointer need not survive a power cut when their put returns, only
///   after ``makeDurable()``, which the publication calls before it commits the root; every
///   other name is durable when its put returns.
public protocol PublicationTarget: Sendable {
    /// Where the publication is, for messages: a directory path, a bucket URL.
    var location: String { get }

    /// Makes the target ready to be published into and takes it for this shard's publication
    /// alone, for at most `lease` where the lock can expire (object storage); a second
    /// publisher of the shard is refused (``PublishError/busy(lock:holder:)``). Held until
    /// the returned object is released.
    func lock(for shard: Shard, lease: Duration) throws(PublishError) -> AnyObject

    /// Every name there, whoever put it. A listing that fails is an error, never an empty
    /// list: the publication counts its versions above what is there and takes back only
    /// its own temporaries, so a target that looked empty could have a file it did not
    /// write replaced (``PublishError/unusableTarget(location:reason:)``).
    func names() throws(PublishError) -> [String]

    /// A reader asking for `name` gets a file (a link to one included).
    func serves(_ name: String) -> Bool

    /// A plain file is at `name`: not a link, not a directory. Only such a file is read back
    /// as the publisher's own (by its digest) or deleted.
    func holdsFile(_ name: String) -> Bool

    /// The bytes a reader gets at `name`, if any can be read.
    func read(_ name: String) -> [UInt8]?

    /// The root's bytes (`nil` when there is none) and the version to commit over.
    func readRoot(_ name: String) throws(PublishError) -> (bytes: [UInt8]?, version: RootVersion)

    /// Puts a whole file at a mutable `name` (a pointer, a page, the intent), replacing what a
    /// reader got there before. A pointer may wait for ``makeDurable()``; any other is durable now.
    func put(_ bytes: [UInt8], as name: String) throws(PublishError)

    /// A fresh local path where the publication writes a file (SQLite writes snapshots to
    /// paths, and their name is their digest, known once written) before
    /// ``putImmutable(fileAt:as:)`` puts it.
    func scratchPath() throws(PublishError) -> String

    /// Puts the file written at `path` (from ``scratchPath()``) at the immutable `name`; the
    /// scratch file is gone afterwards. `false` when `name` was already there (same name, same
    /// bytes): nothing was put.
    @discardableResult func putImmutable(fileAt path: String, as name: String) throws(PublishError) -> Bool

    /// Puts `bytes` at the immutable `name`; `false` when it was already there.
    @discardableResult func putImmutable(_ bytes: [UInt8], as name: String) throws(PublishError) -> Bool

    /// Makes every file put so far survive a power cut, in one step for the whole
    /// publication. Called after the last immutable file, and after the pointers, before the
    /// root, which must never name a file that a power cut could lose or leave empty. It exists
    /// because flushing each file as it was put cost one disk flush per file: a first
    /// publication of 3,000 feeds took 83 s of wall clock for 9 s of CPU (issue 41). A target
    /// whose puts are durable when they return (object storage) has nothing to do here.
    func makeDurable() throws(PublishError)

    /// A path on this machine where the file at `name` can be read while the publication
    /// runs (SQLite reads snapshots from paths): the file itself, or a copy.
    func localCopy(of name: String) throws(PublishError) -> String

    /// Puts the root, after every file it names is in place, if the root there is still the
    /// version `expecting` (none, for ``RootVersion/absent``); otherwise nothing is written and
    /// ``PublishError/rootChanged(location:detail:)`` is thrown. Returns the new version.
    func commitRoot(_ bytes: [UInt8], as name: String, expecting: RootVersion) throws(PublishError) -> RootVersion

    /// Makes the stable name `name` serve the bytes of `file`, in one step for readers.
    /// `false` when it already does, or when `file` is not there.
    func alias(_ name: String, to file: String) throws(PublishError) -> Bool

    /// Removes the plain file at `name` (see ``holdsFile(_:)``); anything else there is left
    /// alone. `true` when a file was removed.
    func delete(_ name: String) -> Bool
}
