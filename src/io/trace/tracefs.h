/* tracefs.h - nvscope's own tracefs instances (trace record's capture where
 * blktrace is refused).  An instance holds kernel buffers and keeps tracing
 * until it is removed, so a process killed before it removed its own (SIGKILL,
 * a crash) leaves one behind.  Each is named "nvscope-PID-START", START the
 * process's start time (field 22 of /proc/PID/stat): an instance is stale
 * when no process PID with that start time exists (a reused PID has another
 * start time), and removed by the next trace record.  The older name
 * "nvscope-PID" is stale only when no process PID exists at all. */
#ifndef NVS_IO_TRACEFS_H
#define NVS_IO_TRACEFS_H

#include <stddef.h>

/* "nvscope-PID-START" of this process into @buf: 0, or -errno. */
int tracefs_instance_name(char *buf, size_t len);
/* Removes the stale nvscope instances in @instances (TRACEFS/instances),
 * judged by the processes in @proc ("/proc"); every other entry is left
 * alone.  @removed (may be NULL) is called with the name of each stale one
 * and 0 when it was removed, -errno when it could not be.  The number
 * removed, or -errno when @instances cannot be read. */
int tracefs_sweep(const char *instances, const char *proc,
		  void (*removed)(const char *name, int err, void *arg), void *arg);

#endif
