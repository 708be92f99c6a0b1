import FeedStorage

/// Where a publication goes: what ``PublishRun`` needs of it, and nothing more. The local
/// publish directory is the first kind (``DirectoryTarget``); another kind (object storage)
/// is one more type that keeps these promises, and ``PublishRun`` does not change.
///
/// The promises, whatever the kind:
/// - a file is put whole: a reader gets the old bytes at a name or the new ones, never a part;
/// - files are immutable once put, except the pages (`atom.xml`, `index.html`), the stable
///   names (``alias(_:to:)``) and the manifest, which is put last (``putManifest(_:as:)``);
/// - ``delete(_:)`` is only ever asked for names the publisher gave (``PublishedName``) and
///   recorded as its own, and removes a plain file only: never a link, a directory, or
///   anything it cannot be sure of, so a file Feedmill did not create is never deleted;
/// - ``lock()`` makes the publication exclusive;
/// - a versioned file (a snapshot or delta, ``PublishedName/version``) need not survive a
///   power cut when its put returns, only after ``makeDurable()``, which the publication
///   calls before it puts the manifest; every other name is durable when its put returns.
public protocol PublicationTarget: Sendable {
    /// Where the publication is, for messages: a directory path, a bucket URL.
    var location: String { get }

    /// Makes the target ready to be published into and takes it for this publication alone;
    /// a second publisher is refused at once (``PublishError/busy(lockPath:holder:)``). Held
    /// until the returned object is released.
    func lock() throws(PublishError) -> AnyObject

    /// Every name there, whoever put it. A listing that fails is an error, never an empty
    /// list: the publication counts its versions above what is there and takes back only
    /// its own temporaries, so a target that looked empty could have a file it did not
    /// write replaced (``PublishError/outputDirectory(path:reason:)``).
    func names() throws(PublishError) -> [String]

    /// A reader asking for `name` gets a file (a link to one included).
    func serves(_ name: String) -> Bool

    /// A plain file is at `name`: not a link, not a directory. Only such a file is read back
    /// as the publisher's own (by its digest) or deleted.
    func holdsFile(_ name: String) -> Bool

    /// The bytes a reader gets at `name`, if any can be read.
    func read(_ name: String) -> [UInt8]?

    /// Puts a whole file at `name`, replacing what a reader got there before. A versioned
    /// name may wait for ``makeDurable()`` to survive a power cut; any other is durable now.
    func put(_ bytes: [UInt8], as name: String) throws(PublishError)

    /// Puts at `name` the file `write` makes at the local path it is given (SQLite writes
    /// snapshots to paths, not to memory), and returns what `write` returned. `write` need
    /// not flush it: only versioned snapshots are put this way, and ``makeDurable()`` makes
    /// them durable with the rest.
    func put<Made>(_ name: String, writtenBy write: (_ path: String) throws(StorageError) -> Made) throws(PublishError) -> Made

    /// Makes every file put so far survive a power cut, in one step for the whole
    /// publication. Called after the last versioned file and before the manifest, which must
    /// never name a file that a power cut could lose or leave empty, and again after the
    /// stable names. It exists because flushing each file as it was put cost one disk flush
    /// per file: a first publication of 3,000 feeds took 83 s of wall clock for 9 s of CPU
    /// (issue 41). A target whose puts are durable when they return (object storage, memory)
    /// has nothing to do here.
    func makeDurable() throws(PublishError)

    /// A path on this machine where the file at `name` can be read while the publication
    /// runs (SQLite reads snapshots from paths): the file itself, or a copy.
    func localCopy(of name: String) throws(PublishError) -> String

    /// Puts the manifest, after every file it names is in place: from here on clients see
    /// this publication.
    func putManifest(_ bytes: [UInt8], as name: String) throws(PublishError)

    /// Makes the stable name `name` serve the bytes of `file`, in one step for readers.
    /// `false` when it already does, or when `file` is not there.
    func alias(_ name: String, to file: String) throws(PublishError) -> Bool

    /// Removes the plain file at `name` (see ``holdsFile(_:)``); anything else there is left
    /// alone. `true` when a file was removed.
    func delete(_ name: String) -> Bool
}
