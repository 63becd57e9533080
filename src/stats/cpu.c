/* cpu.c - per-core utilization from /proc/stat deltas. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/cpu.h"

struct ticks {
	unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
};

struct cpu {
	unsigned n;
	struct ticks prev[CPU_MAX + 1]; /* [0] total, [1 + i] core i */
	struct cpu_util util[CPU_MAX + 1];
};

static int read_stat(struct ticks *t, unsigned *n)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512];
	unsigned count = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct ticks k;
		unsigned idx;
		if (strncmp(line, "cpu", 3))
			break;
		memset(&k, 0, sizeof(k));
		if (line[3] == ' ') {
			idx = 0;
		} else {
			unsigned id;
			if (sscanf(line + 3, "%u", &id) != 1 || id >= CPU_MAX)
				continue;
			idx = 1 + id;
			if (id + 1 > count)
				count = id + 1;
		}
		char *p = strchr(line, ' ');
		if (!p || sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &k.user, &k.nice,
				 &k.system, &k.idle, &k.iowait, &k.irq, &k.softirq, &k.steal) < 4)
			continue;
		t[idx] = k;
	}
	fclose(f);
	*n = count;
	return 0;
}

struct cpu *cpu_new(void)
{
	struct cpu *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	if (read_stat(c->prev, &c->n)) {
		free(c);
		return NULL;
	}
	return c;
}

void cpu_free(struct cpu *c)
{
	free(c);
}

int cpu_update(struct cpu *c)
{
	struct ticks now[CPU_MAX + 1];
	unsigned n;
	int rc;

	memcpy(now, c->prev, sizeof(now));
	rc = read_stat(now, &n);
	if (rc)
		return rc;
	for (unsigned i = 0; i <= n && i <= CPU_MAX; i++) {
		const struct ticks *a = &c->prev[i], *b = &now[i];
		double user = (double)(b->user + b->nice) - (double)(a->user + a->nice);
		double sys = (double)b->system - (double)a->system;
		double idle = (double)b->idle - (double)a->idle;
		double iow = (double)b->iowait - (double)a->iowait;
		double irq = (double)(b->irq + b->softirq) - (double)(a->irq + a->softirq);
		double steal = (double)b->steal - (double)a->steal;
		double total = user + sys + idle + iow + irq + steal;
		struct cpu_util *u = &c->util[i];
		if (total <= 0) /* no tick elapsed: keep the previous figures */
			continue;
		u->user = 100 * user / total;
		u->system = 100 * sys / total;
		u->iowait = 100 * iow / total;
		u->irq = 100 * irq / total;
		u->steal = 100 * steal / total;
		u->idle = 100 * idle / total;
	}
	memcpy(c->prev, now, sizeof(now));
	c->n = n;
	return 0;
}

unsigned cpu_count(const struct cpu *c)
{
	return c->n;
}

const struct cpu_util *cpu_get(const struct cpu *c, int i)
{
	if (i >= (int)c->n)
		return NULL;
	return &c->util[i < 0 ? 0 : 1 + i];
}
