#ifndef CPROCESSGUARD_SHIM_H
#define CPROCESSGUARD_SHIM_H

#include <sys/resource.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <limits.h>

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

/// Raises the soft limit on open files (RLIMIT_NOFILE) to `wanted`, or as far as the hard limit allows; a server
/// holding many connections needs more than the usual soft limit of 1,024. Returns the soft limit then, or -1 when it
/// cannot be read.
static inline long cprocessguard_raise_open_files(long wanted) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
    if (wanted > 0 && limit.rlim_cur != RLIM_INFINITY && (rlim_t)wanted > limit.rlim_cur) {
        struct rlimit raised = limit;
        int capped = limit.rlim_max != RLIM_INFINITY && limit.rlim_max < (rlim_t)wanted;
        raised.rlim_cur = capped ? limit.rlim_max : (rlim_t)wanted;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    }
    return limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > (rlim_t)LONG_MAX ? LONG_MAX : (long)limit.rlim_cur;
}

#endif
