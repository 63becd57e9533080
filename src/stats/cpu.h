/* cpu.h - CPU utilization: every core from /proc/stat, consumer side. */
#ifndef NVS_CPU_H
#define NVS_CPU_H

#include <stdint.h>

#define CPU_MAX 256

/* Utilization of one core (or the total) over the last interval, in %. */
struct cpu_util {
	double user, system, iowait, irq, steal, idle; /* irq includes softirq; nice in user */
};

struct cpu;

/* Opens /proc/stat accounting.  NULL on failure (no /proc). */
struct cpu *cpu_new(void);
void cpu_free(struct cpu *c);
/* Reads /proc/stat and computes the utilization since the previous call
 * (since cpu_new for the first).  Returns 0 or -errno. */
int cpu_update(struct cpu *c);
/* Number of cores seen. */
unsigned cpu_count(const struct cpu *c);
/* Core @i (0-based), or the machine total when @i < 0. */
const struct cpu_util *cpu_get(const struct cpu *c, int i);

#endif
