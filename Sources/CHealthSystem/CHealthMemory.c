#include "CHealthMemory.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <limits.h>
#include <malloc.h>
#endif

int hsys_set_mmap_threshold(size_t threshold) {
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    if (threshold > (size_t)INT_MAX) threshold = (size_t)INT_MAX;
    return mallopt(M_MMAP_THRESHOLD, (int)threshold) == 1;
#else
    (void)threshold;
    return 0;
#endif
}
