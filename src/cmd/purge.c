/* purge.c - `nvscope purge DEV --method=M [--ses=N] --yes-destroy-data=X`:
 * Format NVM, Sanitize or deallocate (TRIM) a whole device.  Destroys
 * data, so it needs the controller's serial (NVMe) or the device path
 * (others) as confirmation, refuses anything in use, and anything holding
 * a partition table or signature without --force-destroy (docs/safety.md). */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nvscope.h"
#include "base/num.h"
#include "cmd/cmd.h"
#include "dev/purge.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvscope purge DEV --method=METHOD [--ses=N] --yes-destroy-data=SERIAL|PATH\n"
		"                     [--force-destroy]\n"
		"  Destroys all data on DEV.\n"
		"  --method=format              Format NVM (keeps the LBA format), with\n"
		"     --ses=0|1|2               secure erase: 0 none, 1 user data, 2 crypto\n"
		"  --method=sanitize-block      Sanitize block erase (whole NVM subsystem)\n"
		"  --method=sanitize-crypto     Sanitize crypto erase\n"
		"  --method=sanitize-overwrite  Sanitize overwrite\n"
		"  --method=trim                deallocate every LBA (NVMe Dataset Management,\n"
		"                               BLKDISCARD for other block devices)\n"
		"  --yes-destroy-data=X         X must be the controller's serial number (NVMe,\n"
		"                               see `nvscope list`) or the device path (others)\n"
		"  --force-destroy              also where a partition table or a filesystem/\n"
		"                               RAID/LVM signature is found (docs/safety.md)\n"
		"  --quiet                      no progress\n"
		"  Refused (exit 2, nothing touched) without confirmation, when anything on\n"
		"  the device is mounted or in use, when it holds a signature and\n"
		"  --force-destroy is not given, or when the device lacks the method.\n");
}

static void progress(double pct, void *arg)
{
	(void)arg;
	fprintf(stderr, "\rpurge: %5.1f%%", pct);
	if (pct >= 100.0)
		fprintf(stderr, "\n");
}

int cmd_purge(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "method", required_argument, NULL, 'm' },
		{ "ses", required_argument, NULL, 's' },
		{ "yes-destroy-data", required_argument, NULL, 'y' },
		{ "force-destroy", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct purge_opts o = { .method = PURGE_TRIM };
	const char *method = NULL;
	bool quiet = false;
	char err[512];
	int c, r, st = 0;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			method = optarg;
			break;
		case 's': {
			unsigned ses;
			if (num_parse_uint(optarg, 0, 2, &ses)) {
				fprintf(stderr, "nvscope purge: --ses=%s: must be 0, 1 or 2\n",
					optarg);
				return NVS_EXIT_USAGE;
			}
			o.ses = (int)ses;
			break;
		}
		case 'y':
			o.confirm = optarg;
			break;
		case 'f':
			o.force = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return NVS_EXIT_OK;
		default:
			fprintf(stderr, "nvscope purge: bad option '%s' (try --help)\n",
				argv[optind - 1]);
			return NVS_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "nvscope purge: give exactly one device (try --help)\n");
		return NVS_EXIT_USAGE;
	}
	if (!method) {
		fprintf(stderr, "nvscope purge: --method is required (format, sanitize-block, "
				"sanitize-crypto, sanitize-overwrite, trim)\n");
		return NVS_EXIT_USAGE;
	}
	if (purge_parse_method(method, &o.method)) {
		fprintf(stderr, "nvscope purge: unknown method '%s' (format, sanitize-block, "
				"sanitize-crypto, sanitize-overwrite, trim)\n", method);
		return NVS_EXIT_USAGE;
	}
	if (o.ses && o.method != PURGE_FORMAT) {
		fprintf(stderr, "nvscope purge: --ses applies to --method=format only\n");
		return NVS_EXIT_USAGE;
	}
	if (!quiet && isatty(STDERR_FILENO))
		o.progress = progress;
	r = purge_run(argv[optind], &o, &st, err, sizeof(err));
	if (r) {
		fprintf(stderr, "nvscope purge: %s\n", err);
		return r == -EIO || r == -ETIMEDOUT ? NVS_EXIT_IOERR : NVS_EXIT_USAGE;
	}
	printf("purge: %s done on %s\n", method, argv[optind]);
	return NVS_EXIT_OK;
}
