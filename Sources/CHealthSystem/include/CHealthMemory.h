#ifndef CHEALTHMEMORY_H
#define CHEALTHMEMORY_H

#include <stddef.h>

/* Blocks of at least `threshold` bytes are mapped on their own and returned to the system when
   freed (glibc: M_MMAP_THRESHOLD, which also stops glibc from raising the threshold on its own
   after each large free). Returns 1 when set, 0 where the C library has no such setting. */
int hsys_set_mmap_threshold(size_t threshold);

#endif
