/* steady.c - fuzzes `nvscope steady FILE` (the fio write_iops_log /
 * write_bw_log reader, the samples CSV and rounds.csv readers, and the
 * steady-state computations on what they read), in text and --json output
 * and with rounds (-R).  The command's stdout and stderr go to /dev/null
 * while it runs; sanitizer reports keep the real stderr. */
#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int null_fd = -1, err_fd = -1;
	if (size > 1 << 16)
		return -1;
	if (null_fd < 0) {
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		if (null_fd < 0 || err_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0)
			abort();
		__sanitizer_set_report_fd((void *)(intptr_t)err_fd);
	}
	char path[64];
	snprintf(path, sizeof(path), "%s", fuzz_file(data, size));
	char *a1[] = {"nvscope", "steady", path, NULL};
	char *a2[] = {"nvscope", "steady", "--json", "-R", "1", path, NULL};
	fflush(stderr);
	dup2(null_fd, STDERR_FILENO);
	cmd_main(3, a1);
	cmd_main(6, a2);
	fflush(stdout);
	fflush(stderr);
	dup2(err_fd, STDERR_FILENO);
	return 0;
}
