#if canImport(Glibc)
import Glibc
#endif

/// `syncfs(2)`, which Glibc declares only for `_GNU_SOURCE` and so Swift's Glibc module does
/// not show: looked up once in the C library already loaded, rather than a C module of its own.
enum FileSystemSync {
    typealias Function = @convention(c) (Int32) -> Int32

    /// `nil` where the C library has no `syncfs` (before glibc 2.14).
    static let syncfs: Function? = {
        guard let library = dlopen(nil, RTLD_NOW), let symbol = dlsym(library, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()
}
