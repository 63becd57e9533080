/* uring-floor.c - the software floor for bench/vs-fio.sh.
 *
 * The least an io_uring engine can do and still time every I/O: one thread,
 * one ring, QD random reads kept in flight, submitted and reaped in batches.
 * Each pass of the loop is
 *   1. refill every free slot (random aligned offset, stamp it with `now`);
 *   2. one io_uring_enter: submit the batch, wait for >= 1 completion;
 *   3. one clock read (`now`), then reap every visible CQE: latency =
 *      now - issue time goes into a tiny log-linear histogram (16 sub-buckets
 *      per power of two, <= 6.25% bucket width) plus sum/min/max.
 * So one clock read per batch, the same scheme nvscope's worker uses; what
 * nvscope adds on top of this (offset generator options, interval samples,
 * the 64-sub-bucket histogram, rusage per interval) is its overhead.
 * CPU time is the thread's usr+sys from getrusage over the measured window;
 * the figure of merit is IOPS per CPU-second.
 *
 * Ring flags COOP_TASKRUN|SINGLE_ISSUER|DEFER_TASKRUN (fallbacks for older
 * kernels), as in nvscope: the floor should be the best plain loop, not a
 * strawman.  Not part of the nvscope binary: bench/vs-fio.sh builds it with
 *   cc -O2 -o build/uring-floor bench/uring-floor.c -luring
 *
 * Usage: uring-floor -f PATH [-s SIZE_BYTES] [-q QD] [-b BS] [-t SECONDS]
 *                    [-d (O_DIRECT)] [-r RAMP_SECONDS] [-F]
 * -F registers the buffers (READ_FIXED) and the file (IOSQE_FIXED_FILE), as
 * nvscope does by default and fio does with fixedbufs/registerfiles.
 * Prints one line of key=value pairs (iops, iops_per_cpu_s, usr_s, sys_s,
 * mean_ns, p50_ns, p99_ns, max_ns, ios, runtime_s); exit 0, 1 on an I/O
 * error, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define SUB_BITS 4
#define SUB (1u << SUB_BITS)
#define NBUCKET (64 * SUB)
#define MAXQD 1024

static uint64_t hist[NBUCKET];

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* log-linear bucket: values < SUB are exact, then SUB buckets per octave */
static inline unsigned bucket(uint64_t v)
{
	if (v < SUB)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = msb - SUB_BITS;
	return (shift + 1) * SUB + (unsigned)((v >> shift) & (SUB - 1));
}

/* middle of a bucket's value range */
static uint64_t bucket_value(unsigned b)
{
	if (b < SUB)
		return b;
	unsigned shift = b / SUB - 1;
	uint64_t lo = ((uint64_t)(SUB + b % SUB)) << shift;
	return lo + (((uint64_t)1 << shift) >> 1);
}

static uint64_t percentile(uint64_t total, double p)
{
	uint64_t want = (uint64_t)((double)total * p / 100.0), seen = 0;
	if (want == 0)
		want = 1;
	for (unsigned b = 0; b < NBUCKET; b++) {
		seen += hist[b];
		if (seen >= want)
			return bucket_value(b);
	}
	return 0;
}

static double cpu_s(void)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static int usage(void)
{
	fprintf(stderr, "usage: uring-floor -f PATH [-s SIZE] [-q QD] [-b BS] [-t SEC] "
			"[-r RAMP_SEC] [-d] [-F]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	uint64_t size = 0, bs = 4096;
	unsigned qd = 32;
	double secs = 5, ramp = 0;
	int direct = 0, fixed = 0, opt;

	while ((opt = getopt(argc, argv, "f:s:q:b:t:r:dF")) != -1) {
		switch (opt) {
		case 'f': path = optarg; break;
		case 's': size = strtoull(optarg, NULL, 0); break;
		case 'q': qd = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'b': bs = strtoull(optarg, NULL, 0); break;
		case 't': secs = strtod(optarg, NULL); break;
		case 'r': ramp = strtod(optarg, NULL); break;
		case 'd': direct = 1; break;
		case 'F': fixed = 1; break;
		default: return usage();
		}
	}
	if (!path || qd == 0 || qd > MAXQD || bs == 0 || bs % 512 || secs <= 0)
		return usage();

	int fd = open(path, O_RDONLY | (direct ? O_DIRECT : 0));
	if (fd < 0) {
		fprintf(stderr, "uring-floor: %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (!size) {
		struct stat sb;
		if (fstat(fd, &sb) == 0 && S_ISBLK(sb.st_mode))
			ioctl(fd, BLKGETSIZE64, &size);
		else if (fstat(fd, &sb) == 0)
			size = (uint64_t)sb.st_size;
	}
	if (size < bs) {
		fprintf(stderr, "uring-floor: %s: give -s SIZE (>= block size)\n", path);
		return 2;
	}
	uint64_t nblocks = size / bs;

	struct io_uring ring;
	struct io_uring_params p;
	const unsigned flags[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN, 0};
	int rc = -EINVAL;
	for (unsigned i = 0; i < 3 && rc == -EINVAL; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = flags[i];
		rc = io_uring_queue_init_params(qd, &ring, &p);
	}
	if (rc) {
		fprintf(stderr, "uring-floor: io_uring setup: %s\n", strerror(-rc));
		return 1;
	}

	char *bufs;
	if (posix_memalign((void **)&bufs, 4096, bs * qd))
		return 1;
	memset(bufs, 0, bs * qd);
	int ufd = fd, sqe_flags = 0;
	if (fixed) {
		/* one registered buffer covering all slots; one registered file */
		struct iovec iov = {bufs, bs * qd};
		if (io_uring_register_buffers(&ring, &iov, 1) ||
		    io_uring_register_files(&ring, &fd, 1)) {
			fprintf(stderr, "uring-floor: cannot register buffers/files\n");
			return 1;
		}
		ufd = 0;
		sqe_flags = IOSQE_FIXED_FILE;
	}
	static uint64_t t_issue[MAXQD];
	static unsigned freel[MAXQD];
	unsigned nfree = qd, inflight = 0;
	for (unsigned i = 0; i < qd; i++)
		freel[i] = i;

	uint64_t x = 0x9e3779b97f4a7c15ull; /* xorshift64 */
	uint64_t ios = 0, lat_sum = 0, lat_max = 0, lat_min = UINT64_MAX;
	uint64_t now = now_ns();
	uint64_t t_meas = now + (uint64_t)(ramp * 1e9);
	uint64_t t_end = t_meas + (uint64_t)(secs * 1e9);
	int measuring = ramp <= 0, stopping = 0;
	double cpu0 = cpu_s();

	for (;;) {
		while (!stopping && nfree) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			if (!sqe)
				break;
			unsigned idx = freel[--nfree];
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (fixed)
				io_uring_prep_read_fixed(sqe, ufd, bufs + (size_t)idx * bs,
							 (unsigned)bs, (x % nblocks) * bs, 0);
			else
				io_uring_prep_read(sqe, ufd, bufs + (size_t)idx * bs, (unsigned)bs,
						   (x % nblocks) * bs);
			sqe->flags |= (unsigned char)sqe_flags;
			sqe->user_data = idx;
			t_issue[idx] = now;
			inflight++;
		}
		if (!inflight)
			break;
		struct io_uring_cqe *cqe;
		rc = io_uring_submit_and_wait(&ring, 1);
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			fprintf(stderr, "uring-floor: io_uring_enter: %s\n", strerror(-rc));
			return 1;
		}
		now = now_ns();
		unsigned head, n = 0;
		io_uring_for_each_cqe(&ring, head, cqe)
		{
			unsigned idx = (unsigned)cqe->user_data;
			if (cqe->res != (int)bs) {
				fprintf(stderr, "uring-floor: read returned %d\n", cqe->res);
				return 1;
			}
			if (measuring) {
				uint64_t lat = now - t_issue[idx];
				hist[bucket(lat)]++;
				lat_sum += lat;
				if (lat > lat_max)
					lat_max = lat;
				if (lat < lat_min)
					lat_min = lat;
				ios++;
			}
			freel[nfree++] = idx;
			n++;
		}
		io_uring_cq_advance(&ring, n);
		inflight -= n;
		if (!measuring && now >= t_meas) {
			measuring = 1;
			t_meas = now;
			t_end = now + (uint64_t)(secs * 1e9);
			cpu0 = cpu_s();
		}
		if (now >= t_end)
			stopping = 1;
	}
	double cpu = cpu_s() - cpu0;
	double rt = (double)(now - t_meas) / 1e9;
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	printf("iops=%.0f iops_per_cpu_s=%.0f cpu_s=%.3f runtime_s=%.3f ios=%llu mean_ns=%.0f "
	       "p50_ns=%llu p99_ns=%llu min_ns=%llu max_ns=%llu\n",
	       ios / rt, cpu > 0 ? ios / cpu : 0.0, cpu, rt, (unsigned long long)ios,
	       ios ? (double)lat_sum / (double)ios : 0.0,
	       (unsigned long long)percentile(ios, 50), (unsigned long long)percentile(ios, 99),
	       (unsigned long long)(ios ? lat_min : 0), (unsigned long long)lat_max);
	io_uring_queue_exit(&ring);
	free(bufs);
	close(fd);
	return 0;
}
