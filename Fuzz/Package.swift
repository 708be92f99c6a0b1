// swift-tools-version:6.0
import PackageDescription

// The coverage-guided fuzz target over parse + normalise (libFuzzer), kept out of the product
// package: it is built only by Scripts/fuzz, with the sanitizers on every module it links.
let package = Package(
    name: "FeedmillFuzz",
    dependencies: [.package(name: "Feedmill", path: "..")],
    targets: [
        .executableTarget(
            name: "feed-fuzz",
            dependencies: [
                "CFuzzMain",
                .product(name: "FeedParsing", package: "Feedmill"),
                .product(name: "FeedNormalization", package: "Feedmill"),
                .product(name: "FeedModel", package: "Feedmill"),
            ],
            // The entry point comes from CFuzzMain, which runs libFuzzer's driver.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .target(name: "CFuzzMain"),
    ],
    swiftLanguageModes: [.v6]
)
