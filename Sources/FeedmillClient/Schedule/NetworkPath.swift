import Foundation

#if canImport(Network)
import Network
#endif

/// The network a sync would use, as the platform reports it.
public struct NetworkPath: Sendable, Equatable {
    public var isAvailable: Bool
    /// Cellular or a hotspot: the user may pay per byte.
    public var isExpensive: Bool
    /// The user asked to save data (Low Data Mode).
    public var isConstrained: Bool

    public init(isAvailable: Bool, isExpensive: Bool = false, isConstrained: Bool = false) {
        self.isAvailable = isAvailable
        self.isExpensive = isExpensive
        self.isConstrained = isConstrained
    }

    /// What a machine without a network monitor assumes: a network that is there, cheap and
    /// unconstrained (a server, a desktop; a failed request says otherwise).
    public static let assumed = NetworkPath(isAvailable: true)
}

/// Where a ``SyncScheduler`` learns the current network: injectable, so an app passes its own,
/// a test a fixed one. ``NetworkPaths/platformDefault()`` is `NWPathMonitor` on Apple
/// platforms and ``NetworkPath/assumed`` elsewhere.
public protocol NetworkPathSource: Sendable {
    func current() -> NetworkPath
}

/// A fixed path: a test's, or the Linux default.
public struct FixedNetworkPath: NetworkPathSource {
    public let path: NetworkPath
    public init(_ path: NetworkPath) { self.path = path }
    public func current() -> NetworkPath { path }
}

public enum NetworkPaths {
    /// `NWPathMonitor` where the Network framework is; ``NetworkPath/assumed`` elsewhere.
    public static func platformDefault() -> any NetworkPathSource {
        #if canImport(Network)
        MonitoredNetworkPath()
        #else
        FixedNetworkPath(.assumed)
        #endif
    }
}

#if canImport(Network)
/// The path `NWPathMonitor` last reported (started at init, on its own queue).
public final class MonitoredNetworkPath: NetworkPathSource, @unchecked Sendable {
    // `@unchecked Sendable`: `latest` is guarded by `lock`; the monitor is thread-safe.
    private let monitor = NWPathMonitor()
    private let lock = NSLock()
    private var latest = NetworkPath.assumed

    public init() {
        monitor.pathUpdateHandler = { [weak self] path in
            let value = NetworkPath(isAvailable: path.status == .satisfied, isExpensive: path.isExpensive, isConstrained: path.isConstrained)
            self?.lock.withLock { self?.latest = value }
        }
        monitor.start(queue: DispatchQueue(label: "feedmill.network-path"))
    }

    deinit { monitor.cancel() }

    public func current() -> NetworkPath { lock.withLock { latest } }
}
#endif
