#ifndef CPROCESSGUARD_SHIM_H
#define CPROCESSGUARD_SHIM_H

#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/// Keeps a process that holds keys and tokens in memory out of core files (RLIMIT_CORE 0) and, on Linux, makes it
/// not dumpable (prctl PR_SET_DUMPABLE 0): no core file, and other processes of the same user cannot attach to it
/// or read its memory through /proc. `prctl` is variadic, which Swift cannot call, hence this shim.
/// Returns 0 when both took effect.
static inline int cprocessguard_protect_memory(void) {
    struct rlimit none = {0, 0};
    int result = setrlimit(RLIMIT_CORE, &none);
#ifdef __linux__
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) result = -1;
#endif
    return result;
}

#endif
