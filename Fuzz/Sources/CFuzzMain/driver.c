#include <stddef.h>
#include <stdint.h>

// SwiftPM links an executable target with `main` aliased to `<target>_main`; libFuzzer's own
// `main` is never pulled in. This hands control to libFuzzer's driver instead.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int feed_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
