#ifndef CRESOLV_SHIM_H
#define CRESOLV_SHIM_H

#include <sys/types.h>
#include <netinet/in.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <string.h>

/// Sends one DNS query for `name` of the given class and type with a resolver state of its own
/// (`res_ninit` / `res_nquery`, thread-safe), at most `retry` tries of `timeout_seconds` each.
/// Returns the answer's length, or -1 with the resolver's `h_errno` in `*host_error`
/// (1 HOST_NOT_FOUND, 2 TRY_AGAIN, 3 NO_RECOVERY, 4 NO_DATA, -1 when the resolver could not start).
static inline int cresolv_query(
    const char *name, int query_class, int query_type, unsigned char *answer, int answer_length,
    int timeout_seconds, int retry, int *host_error
) {
    struct __res_state state;
    memset(&state, 0, sizeof(state));
    if (res_ninit(&state) != 0) {
        *host_error = -1;
        return -1;
    }
    state.retrans = timeout_seconds;
    state.retry = retry;
    int length = res_nquery(&state, name, query_class, query_type, answer, answer_length);
    *host_error = length < 0 ? state.res_h_errno : 0;
#if defined(__APPLE__)
    res_ndestroy(&state);
#else
    res_nclose(&state);
#endif
    return length;
}

#endif
