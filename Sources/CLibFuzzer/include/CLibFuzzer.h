// libFuzzer's entry for programs that keep their own main(). SwiftPM links every Linux executable
// with `--defsym main=<module>_main` (so that tests can link it), which takes the place of
// libFuzzer's main(): the fuzz build's main hands its arguments to this instead.
#ifndef CLIBFUZZER_H
#define CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line `*argc`, `*argv` on `callback`. Defined only in binaries
/// linked with `-sanitize=fuzzer`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
