// Nothing to import: this target only supplies the entry point SwiftPM links the fuzzer with.
