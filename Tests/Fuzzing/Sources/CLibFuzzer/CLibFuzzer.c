// The declarations are in include/CLibFuzzer.h; libFuzzer itself is linked by `-sanitize=fuzzer`.
#include "CLibFuzzer.h"
