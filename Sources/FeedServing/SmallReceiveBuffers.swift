import NIOCore

/// Each connection's receive buffer starts at 512 bytes instead of SwiftNIO's 2,048, and grows
/// (to 64 KiB) only for a connection whose reads fill it. SwiftNIO keeps a connection's
/// buffer for its next read: a reader of `/events` sends one small request and then only
/// reads, so over 10,000 idle readers this is 15 MB not held (measured with heaptrack, see
/// docs/benchmarks.md). Added to every connection's pipeline; it handles nothing itself.
final class SmallReceiveBuffers: ChannelInboundHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        context.channel.setOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536))
            .whenFailure { _ in }
    }
}
