/* purge.c - `nvscope purge DEV --method=M [--ses=N] --yes-destroy-data=X`:
 * Format NVM, Sanitize or deallocate (TRIM) a whole device.  Destroys
 * data, so it needs the controller's serial (NVMe) or the device path
 * (others) as confirmation, refuses anything in use, and anything holding
 * a partition table or signature without --force-destroy (docs/safety.md). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "nvscope.h"
#include "base/num.h"
#include "cmd/cmd.h"
#include "cmd/hostcmd.h"
#include "dev/purge.h"

static void progress(double pct, void *arg)
{
	(void)arg;
	fprintf(stderr, "\rpurge: %5.1f%%", pct);
	if (pct >= 100.0)
		fprintf(stderr, "\n");
}

enum { O_METHOD = 256, O_SES, O_CONFIRM, O_FORCE, O_QUIET };

static const struct cmd_opt opts[] = {
    {{"method", required_argument, NULL, O_METHOD},
     0,
     "METHOD",
     "format: Format NVM (keeps the LBA format), with --ses\n"
     "sanitize-block: Sanitize block erase (whole NVM subsystem)\n"
     "sanitize-crypto: Sanitize crypto erase\n"
     "sanitize-overwrite: Sanitize overwrite\n"
     "trim: deallocate every LBA (NVMe Dataset Management,\n"
     "  BLKDISCARD for other block devices)"},
    {{"ses", required_argument, NULL, O_SES},
     0,
     "0|1|2",
     "format's secure erase: 0 none, 1 user data, 2 crypto"},
    {{"yes-destroy-data", required_argument, NULL, O_CONFIRM},
     0,
     "X",
     "X must be the controller's serial number (NVMe,\n"
     "see `nvscope list`) or the device path (others)"},
    {{"force-destroy", no_argument, NULL, O_FORCE},
     0,
     NULL,
     "also where a partition table or a filesystem/\n"
     "RAID/LVM signature is found (docs/safety.md)"},
    {{"quiet", no_argument, NULL, O_QUIET}, 0, NULL, "no progress"},
    HOSTCMD_OPTS,
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

/* Over hosts (a HOST:DEV, or --host/--hosts with DEV on each): the exit
 * status; -1 when the purge is local. */
static int over_hosts(const struct cmd_entry *self, struct cmd_args *a, const struct purge_opts *o,
		      const char *method)
{
	struct hostcmd hc;

	if (hostcmd_take(&hc, self, a))
		return NVS_EXIT_USAGE;
	if (!hostcmd_over(&hc, a)) {
		hostcmd_clear(&hc);
		return -1;
	}
	struct hostpurge p = {method, o->ses, o->confirm, o->force};
	int rc = hostcmd_purge(self, &hc, a, &p);
	hostcmd_clear(&hc);
	return rc < 0 ? cmd_exit_of(rc) : rc;
}

static int exec_purge(const struct cmd_entry *self, struct cmd_args *a)
{
	struct purge_opts o = {.method = PURGE_TRIM};
	const char *method = NULL;
	bool quiet = false;
	char err[512];
	int r, st = 0;

	for (unsigned i = 0; i < a->nopt; i++) {
		const char *v = a->opt[i].val;
		switch (a->opt[i].id) {
		case O_METHOD:
			method = v;
			break;
		case O_SES: {
			unsigned ses;
			if (num_parse_uint(v, 0, 2, &ses)) {
				cmd_say(self, "--ses=%s: must be 0, 1 or 2", v);
				return NVS_EXIT_USAGE;
			}
			o.ses = (int)ses;
			break;
		}
		case O_CONFIRM:
			o.confirm = v;
			break;
		case O_FORCE:
			o.force = true;
			break;
		case O_QUIET:
			quiet = true;
			break;
		}
	}
	if (!method) {
		fprintf(stderr, "nvscope purge: --method is required (format, sanitize-block, "
				"sanitize-crypto, sanitize-overwrite, trim)\n");
		return NVS_EXIT_USAGE;
	}
	if (purge_parse_method(method, &o.method)) {
		fprintf(stderr,
			"nvscope purge: unknown method '%s' (format, sanitize-block, "
			"sanitize-crypto, sanitize-overwrite, trim)\n",
			method);
		return NVS_EXIT_USAGE;
	}
	if (o.ses && o.method != PURGE_FORMAT) {
		fprintf(stderr, "nvscope purge: --ses applies to --method=format only\n");
		return NVS_EXIT_USAGE;
	}
	int hrc = over_hosts(self, a, &o, method);
	if (hrc >= 0)
		return hrc;
	if (a->npos != 1) {
		cmd_say(self, "give exactly one device (try --help)");
		return NVS_EXIT_USAGE;
	}
	const char *dev = a->pos[0];
	if (!quiet && isatty(STDERR_FILENO))
		o.progress = progress;
	r = purge_run(dev, &o, &st, err, sizeof(err));
	if (r) {
		fprintf(stderr, "nvscope purge: %s\n", err);
		return r;
	}
	printf("purge: %s done on %s\n", method, dev);
	return NVS_EXIT_OK;
}

const struct cmd_entry cmd_purge_entry = {
    .name = "purge",
    .summary = "format, sanitize or trim a device (destroys data)",
    .usage = "purge DEV --method=METHOD [--ses=N] --yes-destroy-data=SERIAL|PATH\n"
	     "      [--force-destroy] [--quiet]\n"
	     "purge (HOST:DEV ... | --host DEST ... DEV ...) --method=METHOD [--ses=N]\n"
	     "      --yes-destroy-data=TOKEN,... [--force-destroy] [host options]",
    .text = "Destroys all data on DEV.  Over hosts (docs/hosts.md) each host's agent\n"
	    "purges its devices as nvscope purge does there: the token of each\n"
	    "device (its serial, else its path) must be in --yes-destroy-data's list.",
    .opts = opts,
    .notes = "Refused (exit 2, nothing touched) without confirmation, when anything on\n"
	     "the device is mounted or in use, when it holds a signature and\n"
	     "--force-destroy is not given, or when the device lacks the method.",
    .exec = exec_purge,
};
