/* preset.c - fio job files and nvscope presets: what the sections and
 * options mean (the syntax is jobfile.c's, read as fio reads it).
 *
 * fio semantics kept: sections whose name starts with "global" set the
 * defaults of the job sections after them; every other section is one job,
 * empty and repeated ones included; a job's filename= replaces the one it
 * inherited; the first bad option stops the load, naming its file and line.
 * A file with only [global] is one job named after the file (nvscope
 * presets only: fio runs nothing).  fio's ioengine= is mapped onto io_uring
 * with the same queue-depth semantics (preset_engine_note says how), or refused.
 * fio's grouping (stonewall, new_group) becomes spec run_group and
 * report_group; `nvscope run` starts a run group's jobs together; exitall
 * (global in fio: any job sets it) and exit_what say which jobs stop when
 * one ends; wait_for=NAME holds a job until that earlier one has ended. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/datadir.h"
#include "config/jobfile.h"
#include "config/preset.h"
#include "io/feat/zbd.h"

enum engine_kind { ENG_ASIS, ENG_ASYNC, ENG_SYNC, ENG_REFUSED };

/* fio's engines: which run here and how (the rest are refused as unknown). */
static const struct {
	const char *name;
	enum engine_kind kind;
	const char *why; /* ENG_REFUSED */
} engines[] = {
    {"io_uring", ENG_ASIS, NULL},
    {"io_uring_cmd", ENG_ASIS, NULL},
    {"libaio", ENG_ASYNC, NULL},
    {"posixaio", ENG_ASYNC, NULL},
    {"psync", ENG_SYNC, NULL},
    {"sync", ENG_SYNC, NULL},
    {"pvsync", ENG_SYNC, NULL},
    {"pvsync2", ENG_SYNC, NULL},
    {"vsync", ENG_SYNC, NULL},
    {"null", ENG_REFUSED, "does no I/O (it measures fio itself)"},
    {"mmap", ENG_REFUSED, "memory-mapped I/O through the page cache has no io_uring equivalent"},
    {"splice", ENG_REFUSED, "splice/vmsplice I/O has no io_uring equivalent here"},
    {"sg", ENG_REFUSED, "SCSI generic commands: not an NVMe block path"},
    {"rdma", ENG_REFUSED, "network engine: no local block device"},
    {"net", ENG_REFUSED, "network engine: no local block device"},
    {"netsplice", ENG_REFUSED, "network engine: no local block device"},
    {"http", ENG_REFUSED, "HTTP/S3 object storage: no local block device"},
    {"rbd", ENG_REFUSED, "Ceph RBD over the network: no local block device"},
    {"rados", ENG_REFUSED, "Ceph RADOS over the network: no local block device"},
    {"nbd", ENG_REFUSED, "network block device protocol: no local block device"},
    {"nfs", ENG_REFUSED, "NFS client engine: no local block device"},
    {"libiscsi", ENG_REFUSED, "iSCSI initiator engine: no local block device"},
    {"gfapi", ENG_REFUSED, "GlusterFS engine: no local block device"},
    {"gfapi_async", ENG_REFUSED, "GlusterFS engine: no local block device"},
    {"libhdfs", ENG_REFUSED, "HDFS engine: no local block device"},
    {"dfs", ENG_REFUSED, "DAOS engine: no local block device"},
    {"libpmem", ENG_REFUSED, "persistent memory (DAX), not block I/O"},
    {"dev-dax", ENG_REFUSED, "persistent memory (DAX), not block I/O"},
    {"mtd", ENG_REFUSED, "raw flash (MTD), not an NVMe block device"},
    {"spdk", ENG_REFUSED, "SPDK user-space driver: use the kernel device with io_uring"},
    {"xnvme", ENG_REFUSED, "use ioengine=io_uring_cmd for NVMe passthrough"},
    {"cpuio", ENG_REFUSED, "burns CPU, does no I/O"},
    {"exec", ENG_REFUSED, "runs a program, does no I/O"},
    {"e4defrag", ENG_REFUSED, "ext4 defragmentation, not block I/O"},
    {"falloc", ENG_REFUSED, "file-system fallocate calls, not block I/O"},
    {"ftruncate", ENG_REFUSED, "file-system truncate calls, not block I/O"},
    {"filecreate", ENG_REFUSED, "file-system metadata operations, not block I/O"},
    {"filestat", ENG_REFUSED, "file-system metadata operations, not block I/O"},
    {"filedelete", ENG_REFUSED, "file-system metadata operations, not block I/O"},
    {"dircreate", ENG_REFUSED, "file-system metadata operations, not block I/O"},
    {"dirstat", ENG_REFUSED, "file-system metadata operations, not block I/O"},
    {"dirdelete", ENG_REFUSED, "file-system metadata operations, not block I/O"},
    {"libcufile", ENG_REFUSED, "GPU direct storage, not measured here"},
    {"libblkio", ENG_REFUSED, "libblkio user-space drivers: use the kernel device with io_uring"},
    {"libhipfile", ENG_REFUSED, "GPU direct storage, not measured here"},
    {"page_fault", ENG_REFUSED, "memory page faults, not block I/O"},
    {"cpp_null", ENG_REFUSED, "does no I/O (it measures fio itself)"},
    {"windowsaio", ENG_REFUSED, "Windows only"},
    {"solarisaio", ENG_REFUSED, "Solaris only"},
};

struct parse {
	bool fio;	    /* fio's defaults (a job file) rather than nvscope's */
	struct spec global; /* what a new job section starts from */
	char global_engine[24];
	struct spec *jobs;
	char (*job_engine)[24]; /* per job: the ioengine= it asked for ("" none) */
	struct grouping {
		bool stonewall, new_group, group_reporting, exitall;
	} global_group, *job_group; /* per job: fio's grouping options */
	unsigned njobs, cap;	    /* jobs[cap]: grown by half (jobfile.h caps the sections) */
	bool in_global;
	const struct preset_extra *x; /* sections that are not jobs, or NULL */
	const char *extra;	      /* the current one of those, or NULL */
};

/* Room for more job sections: the arrays grow by half, not by one (a
 * section costs a struct spec; growing by one copied them all each time). */
static int grow(struct parse *ps)
{
	unsigned cap = ps->cap < 8 ? 8 : ps->cap + ps->cap / 2;
	struct spec *nj = realloc(ps->jobs, cap * sizeof(*nj));
	if (!nj)
		return -ENOMEM;
	ps->jobs = nj;
	char(*ne)[24] = realloc(ps->job_engine, cap * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	ps->job_engine = ne;
	struct grouping *ng = realloc(ps->job_group, cap * sizeof(*ng));
	if (!ng)
		return -ENOMEM;
	ps->job_group = ng;
	ps->cap = cap;
	return 0;
}

static int on_section(void *user, const char *name, char *err, size_t errlen)
{
	struct parse *ps = user;

	ps->extra = NULL;
	for (unsigned i = 0; ps->x && ps->x->sections && ps->x->sections[i]; i++)
		if (!strcmp(name, ps->x->sections[i])) {
			ps->extra = ps->x->sections[i];
			return 0;
		}
	ps->in_global = !strncmp(name, "global", 6); /* fio: strncmp(name, "global", 6) */
	if (ps->in_global)
		return 0;
	if (strlen(name) >= sizeof(ps->global.name)) {
		snprintf(err, errlen, "job name longer than %zu characters",
			 sizeof(ps->global.name) - 1);
		return -EINVAL;
	}
	if (ps->njobs == ps->cap && grow(ps)) {
		snprintf(err, errlen, "out of memory (%u job sections)", ps->njobs + 1);
		return -ENOMEM;
	}
	struct spec *nj = ps->jobs;
	char(*ne)[24] = ps->job_engine;
	struct grouping *ng = ps->job_group;
	ng[ps->njobs] = ps->global_group;
	spec_copy(&nj[ps->njobs], &ps->global);
	if (opt_set(&nj[ps->njobs], "name", name, err, errlen)) /* renames [global]'s bare logs */
		return -EINVAL;
	snprintf(ne[ps->njobs], sizeof(*ne), "%s", ps->global_engine);
	ps->njobs++;
	return 0;
}

/* ioengine=: remembered for finish(); refused engines are refused here, at
 * their line. */
static int set_engine(char *slot, size_t len, const char *v, char *err, size_t errlen)
{
	if (!v || !*v) {
		snprintf(err, errlen, "ioengine: needs a value");
		return -EINVAL;
	}
	for (size_t i = 0; i < NVS_ARRAY_SIZE(engines); i++) {
		if (strcmp(v, engines[i].name))
			continue;
		if (engines[i].kind == ENG_REFUSED) {
			snprintf(err, errlen, "ioengine=%s: %s", v, engines[i].why);
			return -EINVAL;
		}
		snprintf(slot, len, "%s", v);
		return 0;
	}
	snprintf(err, errlen,
		 "ioengine=%s: unknown engine (io_uring, io_uring_cmd, libaio, posixaio, psync, "
		 "sync, pvsync, pvsync2 and vsync run here)",
		 v);
	return -EINVAL;
}

/* fio's wait_for=NAME: NAME is one job defined before this one (fio: no
 * forward references, no duplicate waitees), not itself; in [global] every
 * job, the waitee too, would wait for itself (fio refuses that as well). */
static int set_wait_for(struct parse *ps, struct spec *s, const char *key_in, const char *val,
			char *err, size_t errlen)
{
	unsigned found = 0;

	if (!val || !*val) {
		snprintf(err, errlen, "%s: needs a job name", key_in);
		return -EINVAL;
	}
	if (ps->in_global) {
		snprintf(err, errlen,
			 "%s: in [global] every job, [%s] too, would wait for itself (fio refuses "
			 "it too): set it in the waiting job's section",
			 key_in, val);
		return -EINVAL;
	}
	if (strlen(val) >= sizeof(s->wait_for) || !strcmp(val, s->name)) {
		snprintf(err, errlen, "%s: %s", key_in,
			 strlen(val) >= sizeof(s->wait_for) ? "name too long"
							    : "a job cannot wait for itself");
		return -EINVAL;
	}
	for (unsigned j = 0; j + 1 < ps->njobs; j++)
		found += !strcmp(ps->jobs[j].name, val);
	if (found != 1) {
		snprintf(err, errlen, "%s: %s job '%s' before this one (fio: %s)", key_in,
			 found ? "more than one" : "no", val,
			 found ? "avoid duplicate waitees" : "the waitee must be defined first");
		return -EINVAL;
	}
	snprintf(s->wait_for, sizeof(s->wait_for), "%s", val);
	return 0;
}

static int on_option(void *user, const char *key_in, const char *val, char *err, size_t errlen)
{
	struct parse *ps = user;
	char key[64];
	int rc;

	if (ps->extra)
		return ps->x->fn(ps->x->arg, ps->extra, key_in, val ? val : "", err, errlen);
	struct spec *s = ps->in_global ? &ps->global : &ps->jobs[ps->njobs - 1];

	if (strlen(key_in) >= sizeof(key)) {
		snprintf(err, errlen, "unknown option '%.20s...' (longer than %zu characters)",
			 key_in, sizeof(key) - 1);
		return -EINVAL;
	}
	snprintf(key, sizeof(key), "%s", key_in);
	for (char *p = key; *p; p++)
		if (*p == '-')
			*p = '_';
	if (!strcmp(key, "ioengine"))
		return set_engine(ps->in_global ? ps->global_engine : ps->job_engine[ps->njobs - 1],
				  sizeof(ps->global_engine), val, err, errlen);
	struct grouping *g = ps->in_global ? &ps->global_group : &ps->job_group[ps->njobs - 1];
	bool *flag = !strcmp(key, "stonewall") || !strcmp(key, "wait_for_previous") ? &g->stonewall
		     : !strcmp(key, "new_group")				    ? &g->new_group
		     : !strcmp(key, "group_reporting") ? &g->group_reporting
		     : !strcmp(key, "exitall")	       ? &g->exitall
						       : NULL;
	if (flag) { /* fio: bare, or a boolean value */
		if (!val || !*val || !strcmp(val, "1") || !strcmp(val, "true")) {
			*flag = true;
		} else if (!strcmp(val, "0") || !strcmp(val, "false")) {
			*flag = false;
		} else {
			snprintf(err, errlen, "%s: '%s' is not 0 or 1", key_in, val);
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(key, "exit_what")) { /* fio's: which jobs an exitall stops */
		static const char *const what[] = {"group", "stonewall", "all"};
		for (unsigned i = 0; val && i < NVS_ARRAY_SIZE(what); i++)
			if (!strcmp(val, what[i])) {
				s->exit_what = (uint8_t)i;
				return 0;
			}
		snprintf(err, errlen, "%s: '%s' is not group, stonewall or all", key_in,
			 val ? val : "");
		return -EINVAL;
	}
	if (!strcmp(key, "wait_for")) /* fio's init.c wait_for_ok, at its line */
		return set_wait_for(ps, s, key_in, val, err, errlen);
	if (!strcmp(key, "force_destroy")) { /* docs/safety.md: no file overrides */
		snprintf(err, errlen,
			 "force_destroy: only --force-destroy on the command line overrides "
			 "the write-safety rule, not a file");
		return -EINVAL;
	}
	if (ps->fio &&
	    (!strcmp(key, "md_per_io_size") || !strcmp(key, "pi_act") || !strcmp(key, "pi_chk") ||
	     !strncmp(key, "apptag", 6) || (!strcmp(key, "fdp") && val && strcmp(val, "0")))) {
		/* io_uring_cmd's options (io/feat/pi.h): fio knows an engine's
		 * options once its ioengine= is read, as here */
		const char *e = ps->in_global || !ps->job_engine[ps->njobs - 1][0]
				    ? ps->global_engine
				    : ps->job_engine[ps->njobs - 1];
		if (strcmp(e, "io_uring_cmd")) {
			snprintf(err, errlen,
				 "%s: an option of ioengine=io_uring_cmd (NVMe passthrough), and "
				 "this job's engine is %s%s",
				 key_in, *e ? e : "fio's default psync",
				 *e ? "" : " (set ioengine=io_uring_cmd above this line)");
			return -EINVAL;
		}
	}
	if (!strcmp(key, "filename") || !strcmp(key, "target"))
		s->ntargets = 0,
		s->fileset = false; /* fio: a job's filename= replaces the inherited one */
	rc = opt_set(s, key_in, val, err, errlen);
	if (!rc && ps->fio && zbd_spec_verify_why(s) &&
	    (!strcmp(key, "verify") || !strcmp(key, "zonemode") || !strcmp(key, "verify_backlog") ||
	     !strcmp(key, "time_based") || !strcmp(key, "loops") ||
	     !strcmp(key, "zone_reset_frequency") || !strcmp(key, "verify_only") ||
	     !strcmp(key, "zonecapacity"))) /* at its line */
		rc = -EINVAL, snprintf(err, errlen, "%s", zbd_spec_verify_why(s));
	if (rc && strncmp(err, key_in, strlen(key_in))) {
		/* messages name the option first: "bz: unknown option 'bz'" */
		char why[256];
		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "%s: %s", key_in, why);
	}
	if (!rc &&
	    (!strcmp(key, "bs") || !strcmp(key, "blocksize") || !strcmp(key, "rw") ||
	     !strcmp(key, "readwrite")) &&
	    spec_bs_misfit(s)) { /* at the line that makes it so */
		snprintf(err, errlen, "%s: %s%s", key_in, spec_bs_misfit(s),
			 key[0] == 'b' ? " (set rw= above this line)" : "");
		return -EINVAL;
	}
	return rc ? -EINVAL : 0;
}

/* Why fio's iodepth_level says more than nvscope's for buffered libaio at
 * iodepth @qd (appended to the engine note): io_submit returns after the
 * buffered read or write is done, and fio reaps only once @qd are taken,
 * so it counts finished I/Os as in flight.  Measured with fio 3.33 on a
 * loop device, the device's in-flight count sampled (docs/fio-examples.md,
 * "The depth fio reports for buffered libaio"). */
static void note_fio_depth(char *buf, size_t len, unsigned qd)
{
	snprintf(buf, len,
		 "; fio's iodepth_level counts up to iodepth=%u there: the I/Os its "
		 "io_submit has done and it has not reaped yet",
		 qd);
}

static enum engine_kind engine_kind(const char *name)
{
	for (size_t i = 0; i < NVS_ARRAY_SIZE(engines); i++)
		if (!strcmp(name, engines[i].name))
			return engines[i].kind;
	return ENG_ASIS;
}

/* Why a fio asynchronous engine runs one I/O at a time on Linux, or NULL:
 * posixaio (glibc queues a descriptor's requests to one thread, in order)
 * and libaio without O_DIRECT (io_submit reads or writes through the page
 * cache before it returns).  Measured with fio 3.33 on a loop device:
 * posixaio at iodepth 16 and buffered libaio at 16 give psync's IOPS,
 * O_DIRECT libaio 3x more. */
static const char *serial_why(const struct spec *s, enum engine_kind kind)
{
	if (kind == ENG_ASYNC && !strcmp(s->fio_engine, "posixaio"))
		return " (glibc's POSIX AIO serves a descriptor in order, one request at a time)";
	if (kind == ENG_ASYNC && !s->direct)
		return " without direct=1 (Linux's libaio is synchronous on buffered I/O)";
	return NULL;
}

/* Applies the ioengine a job asked for (or fio's default psync). */
static int finish_engine(struct spec *s, const char *asked, bool fio, char *err, size_t errlen)
{
	const char *name = *asked ? asked : fio ? "psync" : "";

	s->fio_engine[0] = '\0';
	s->fio_iodepth = 0;
	if (!*name)
		return 0;
	if (snprintf(s->fio_engine, sizeof(s->fio_engine), "%s", name) >=
	    (int)sizeof(s->fio_engine)) {
		snprintf(err, errlen, "ioengine=%.40s: not an engine nvscope knows", name);
		return -EINVAL;
	}
	s->fio_engine_default = !*asked;
	enum engine_kind kind = engine_kind(name);
	if (opt_set(s, "ioengine", kind == ENG_ASIS ? name : "io_uring", err, errlen))
		return -EINVAL;
	if (kind == ENG_SYNC || serial_why(s, kind)) {
		s->fio_iodepth = s->iodepth[0]; /* the file's */
		s->iodepth[0] = 1;
		s->niodepth = 1;
	}
	return 0;
}

const char *preset_engine_note(const struct spec *s, char *buf, size_t len)
{
	enum engine_kind kind = engine_kind(s->fio_engine);
	const char *serial = serial_why(s, kind);

	buf[0] = '\0';
	if (!s->fio_engine[0])
		return buf;
	if (kind == ENG_SYNC || serial) {
		const char *why = serial ? serial : s->fio_engine_default ? " (fio's default)" : "";
		int n = snprintf(
		    buf, len, "ioengine=%s%s runs as io_uring at queue depth 1 (one I/O at a time)",
		    s->fio_engine, why);
		if (kind == ENG_ASYNC && strcmp(s->fio_engine, "posixaio") && s->fio_iodepth > 1 &&
		    n > 0 && (size_t)n < len)
			note_fio_depth(buf + n, len - (size_t)n, s->fio_iodepth);
	} else if (kind == ENG_ASYNC) {
		snprintf(buf, len, "ioengine=%s runs as io_uring at iodepth %u", s->fio_engine,
			 s->iodepth[0]);
	}
	return buf;
}

/* A file read (the job file, an include): to the caller's x->file. */
static int on_file(void *user, const char *path, unsigned depth, char *err, size_t errlen)
{
	const struct parse *ps = user;

	(void)depth;
	return ps->x && ps->x->file ? ps->x->file(ps->x->arg, path, err, errlen) : 0;
}

/* Loads @path, or when @buf is not NULL the @len bytes there (named @path). */
static int load(const char *path, const char *buf, size_t len, const struct spec *base, bool fio,
		const struct preset_extra *x, struct spec **jobs, unsigned *njobs, char *err,
		size_t errlen)
{
	static const struct jobfile_ops ops = {
	    .section = on_section, .option = on_option, .file = on_file};
	struct parse ps = {.fio = fio, .global = *base, .x = x};
	int rc;

	if (fio) { /* fio's defaults where nvscope's differ */
		ps.global.rw = RW_READ;
		ps.global.direct = false;
		ps.global.slat = SPEC_SLAT_ON; /* fio's disable_slat=0 (io/opt/spec.h spec_slat) */
	}
	rc = buf ? jobfile_parse_mem(path, buf, len, &ops, &ps, err, errlen)
		 : jobfile_parse(path, &ops, &ps, err, errlen);
	if (rc)
		goto cleanup;
	if (!ps.njobs && fio) {
		snprintf(err, errlen, "%s: no job section (fio runs no job)", path);
		rc = -EINVAL;
		goto cleanup;
	}
	if (!ps.njobs) {
		const char *b = strrchr(path, '/');
		char name[64];
		snprintf(name, sizeof(name), "%s", b ? b + 1 : path);
		name[strcspn(name, ".")] = '\0';
		if (!name[0] || !strncmp(name, "global", 6))
			snprintf(name, sizeof(name), "job");
		if (on_section(&ps, name, err, errlen)) {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -ENOMEM;
			goto cleanup;
		}
	}
	/* fio's init.c add_job: a stonewall job waits for the ones before it
	 * and, like new_group, starts a new reporting group */
	/* fio's exitall is global (exitall_on_terminate): any job sets it for all */
	bool exitall = false;
	for (unsigned j = 0; j < ps.njobs; j++)
		exitall |= ps.job_group[j].exitall;
	for (unsigned j = 0, run = 0, rep = 0; j < ps.njobs; j++) {
		ps.jobs[j].exitall = exitall;
		if (j && ps.job_group[j].stonewall)
			run++;
		if (j && (ps.job_group[j].stonewall || ps.job_group[j].new_group))
			rep++;
		ps.jobs[j].run_group = run;
		ps.jobs[j].report_group = rep;
		ps.jobs[j].group_reporting = ps.job_group[j].group_reporting;
	}
	for (unsigned j = 0; j < ps.njobs; j++) {
		char why[256];
		if (finish_engine(&ps.jobs[j], ps.job_engine[j], fio, why, sizeof(why))) {
			snprintf(err, errlen, "%s: [%s]: %s", path, ps.jobs[j].name, why);
			rc = -EINVAL;
			goto cleanup;
		}
	}
	*jobs = ps.jobs;
	*njobs = ps.njobs;
	ps.jobs = NULL;
cleanup:
	free(ps.jobs);
	free(ps.job_engine);
	free(ps.job_group);
	return rc;
}

int preset_load(const char *path, const struct spec *base, struct spec **jobs, unsigned *njobs,
		char *err, size_t errlen)
{
	return load(path, NULL, 0, base, false, NULL, jobs, njobs, err, errlen);
}

int preset_load_ex(const char *path, const struct spec *base, const struct preset_extra *x,
		   struct spec **jobs, unsigned *njobs, char *err, size_t errlen)
{
	return load(path, NULL, 0, base, false, x, jobs, njobs, err, errlen);
}

int preset_load_fio(const char *path, const struct spec *base, struct spec **jobs, unsigned *njobs,
		    char *err, size_t errlen)
{
	return load(path, NULL, 0, base, true, NULL, jobs, njobs, err, errlen);
}

int preset_load_fio_ex(const char *path, const struct spec *base, const struct preset_extra *x,
		       struct spec **jobs, unsigned *njobs, char *err, size_t errlen)
{
	return load(path, NULL, 0, base, true, x, jobs, njobs, err, errlen);
}

int preset_load_mem(const char *name, const char *buf, size_t len, bool fio,
		    const struct spec *base, struct spec **jobs, unsigned *njobs, char *err,
		    size_t errlen)
{
	return load(name, buf, len, base, fio, NULL, jobs, njobs, err, errlen);
}

void preset_print_job(FILE *f, const struct spec *s)
{
	char a[32];

	fprintf(f, "[%s] rw=%s", s->name, spec_rw_name(s->rw));
	if (s->rw == RW_RW || s->rw == RW_RANDRW)
		fprintf(f, " rwmixread=%u", s->rwmixread);
	{
		char bsv[512];
		const char *bsk = spec_fmt_bs(s, bsv, sizeof(bsv));
		fprintf(f, " %s=%s", bsk, bsv);
	}
	fprintf(f, " iodepth=");
	for (unsigned i = 0; i < s->niodepth; i++)
		fprintf(f, "%s%u", i ? "," : "", s->iodepth[i]);
	fprintf(f, " numjobs=%u direct=%d ioengine=%s", s->numjobs, s->direct,
		s->ioengine == ENGINE_IO_URING_CMD ? "io_uring_cmd" : "io_uring");
	if (s->size_pct > 0)
		fprintf(f, " size=%g%%", s->size_pct);
	else if (s->size)
		fprintf(f, " size=%s", spec_fmt_size(s->size, a, sizeof(a)));
	if (s->io_size)
		fprintf(f, " io_size=%s", spec_fmt_size(s->io_size, a, sizeof(a)));
	if (s->offset_pct > 0)
		fprintf(f, " offset=%g%%", s->offset_pct);
	else if (s->offset)
		fprintf(f, " offset=%s", spec_fmt_size(s->offset, a, sizeof(a)));
	if (s->runtime_ns)
		fprintf(f, " runtime=%gs", (double)s->runtime_ns / 1e9);
	if (s->time_based)
		fprintf(f, " time_based");
	if (s->rate_iops)
		fprintf(f, " rate_iops_total=%llu", (unsigned long long)s->rate_iops);
	if (s->rate_iops_dir[0] || s->rate_iops_dir[1])
		fprintf(f, " rate_iops=%llu,%llu", (unsigned long long)s->rate_iops_dir[0],
			(unsigned long long)s->rate_iops_dir[1]);
	if (s->rate_bw_dir[0] || s->rate_bw_dir[1])
		fprintf(f, " rate=%llu,%llu", (unsigned long long)s->rate_bw_dir[0],
			(unsigned long long)s->rate_bw_dir[1]);
	if (s->continue_on_error)
		fprintf(f, " continue_on_error");
	fprintf(f, " filename=");
	for (unsigned i = 0; i < s->ntargets; i++)
		fprintf(f, "%s%s", i ? ":" : "", s->targets[i]);
	fprintf(f, " run_group=%u group=%u%s", s->run_group, s->report_group,
		s->group_reporting ? " group_reporting" : "");
	if (s->wait_for[0])
		fprintf(f, " wait_for=%s", s->wait_for);
	char note[PRESET_NOTE_LEN];
	if (preset_engine_note(s, note, sizeof(note))[0])
		fprintf(f, "  (%s)", note);
	fputc('\n', f);
}

int preset_find(const char *name, char *path, size_t len)
{
	if (strchr(name, '/') || strstr(name, ".ini") || strstr(name, ".fio"))
		return datadir_file(name, path, len);
	return datadir_find("presets", "NVSCOPE_PRESETS", NULL, name, ".ini", path, len);
}

struct desc {
	char *out;
	size_t len;
};

static int desc_section(void *user, const char *name, char *err, size_t errlen)
{
	(void)user, (void)name, (void)err, (void)errlen;
	return 0;
}

static int desc_option(void *user, const char *key, const char *val, char *err, size_t errlen)
{
	struct desc *d = user;

	(void)err, (void)errlen;
	if (d->out[0] || strcmp(key, "description") || !val)
		return 0;
	if (snprintf(d->out, d->len, "%s", val) >= (int)d->len && d->len > 4)
		strcpy(d->out + d->len - 4, "..."); /* a display line: say it is cut */
	return 0;
}

/* The first description= of @path, read as the job file is (a file that
 * does not load still gets whatever description came before the error). */
static void read_description(const char *path, char *out, size_t len)
{
	static const struct jobfile_ops ops = {.section = desc_section, .option = desc_option};
	struct desc d = {out, len};
	char err[256];

	out[0] = '\0';
	jobfile_parse(path, &ops, &d, err, sizeof(err));
}

static int cmp_info(const void *a, const void *b)
{
	return strcmp(((const struct preset_info *)a)->name, ((const struct preset_info *)b)->name);
}

int preset_list(struct preset_info **out, size_t *n)
{
	char dirs[DATADIR_MAX][PATH_MAX];
	unsigned nd = datadir_list("presets", "NVSCOPE_PRESETS", NULL, dirs, DATADIR_MAX);
	DIR *d = NULL;
	unsigned i;
	struct preset_info *list = NULL;
	size_t count = 0;
	struct dirent *e;

	for (i = 0; i < nd && !d; i++)
		d = opendir(dirs[i]);
	*out = NULL;
	*n = 0;
	if (!d)
		return -ENOENT;
	i--;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || l >= 64 + 4 || strcmp(e->d_name + l - 4, ".ini"))
			continue;
		struct preset_info *nl = realloc(list, (count + 1) * sizeof(*nl));
		if (!nl) {
			free(list);
			closedir(d);
			return -ENOMEM;
		}
		list = nl;
		struct preset_info *pi = &list[count++];
		snprintf(pi->name, sizeof(pi->name), "%.*s", (int)(l - 4), e->d_name);
		snprintf(pi->path, sizeof(pi->path), "%.400s/%.100s", dirs[i], e->d_name);
		read_description(pi->path, pi->description, sizeof(pi->description));
	}
	closedir(d);
	if (count) /* qsort(NULL, 0, ...) is undefined */
		qsort(list, count, sizeof(*list), cmp_info);
	*out = list;
	*n = count;
	return 0;
}
