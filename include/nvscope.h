/* nvscope.h - project-wide definitions: version, small helpers, limits. */
#ifndef NVSCOPE_H
#define NVSCOPE_H

#include <stddef.h>
#include <stdint.h>

#ifndef NVS_VERSION
#define NVS_VERSION "0.0.0"
#endif

#define NVS_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define nvs_likely(x) __builtin_expect(!!(x), 1)
#define nvs_unlikely(x) __builtin_expect(!!(x), 0)
/* a hot-path function with a second, cold caller that must stay inlined */
#define nvs_always_inline inline __attribute__((always_inline))

#define NVS_NSEC_PER_SEC 1000000000ULL
#define NVS_MAX_TARGETS 512 /* targets in one run (reviews drive 24 at once; a rack: 16 x 24) */
#define NVS_MAX_WORKERS 1024
#define NVS_MAX_BSSPLIT 16
#define NVS_MAX_QD_STEPS 16

/* Exit statuses shared by every command. */
enum nvs_exit {
	NVS_EXIT_OK = 0,
	NVS_EXIT_IOERR = 1, /* the run failed at I/O time */
	NVS_EXIT_USAGE = 2, /* bad input or refused for safety; nothing touched */
};

/* I/O direction; indexes every per-direction array. */
/* NVS_TRIM: fio's trim direction (rw=trim, randtrim, trimwrite), its own
 * counts and latencies in every result, as fio's "trim" section. */
enum nvs_dir { NVS_READ = 0, NVS_WRITE = 1, NVS_TRIM = 2, NVS_NDIR = 3 };

#endif
