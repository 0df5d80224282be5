#include "CFreedMemory.h"

// Any header of the C library says which one it is (glibc defines __GLIBC__).
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void ipdata_keep_freed_memory(void) {
#if defined(__GLIBC__)
    // Up to 64 MiB free at the top of a heap stays mapped, and a heap grows 16 MiB at a time:
    // a run's records are allocated and freed by the thousand, on several threads.
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    mallopt(M_TOP_PAD, 16 << 20);
#endif
}
