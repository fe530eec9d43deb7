#ifndef CHEALTHCORES_H
#define CHEALTHCORES_H

/* The CPUs in the calling thread's affinity mask (sched_getaffinity, as `taskset` or a
   container's cpuset sets it), or 0 when it cannot be read. Linux only; 0 elsewhere. */
int hsys_affinity_cores(void);

#endif
