extension Duration {
    /// The duration as seconds, for reports and benchmark lines.
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
