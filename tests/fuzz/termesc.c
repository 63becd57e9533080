/* termesc.c - fuzzes the terminal escaping of outside text (base/termesc):
 * whatever the bytes, the escaped form holds no control (C0 but \n \t \r
 * with TERMESC_KEEP_NL, DEL, C1), is well-formed UTF-8, and a cut to any
 * byte cap or column count is a prefix of it ending between units; the
 * stream filter, fed the input in pieces (split points from the first
 * bytes), writes exactly what termesc makes of the whole. */
#include <stdbool.h>
#include "base/termesc.h"
#include "base/utf8.h"
#include "fuzz.h"

static void clean(const char *s, size_t n, bool nl)
{
	if (!utf8_valid(s, n))
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && !(nl && (c == '\n' || c == '\t' || c == '\r'))) || c == 0x7f)
			abort();
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] <= 0x9f)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char full[8 * 4096 + 1], part[8 * 4096 + 1], got[8 * 4096 + 1];
	if (size < 3 || size > 4096)
		return 0;
	size_t cap = data[0] + 1, cols = data[1], split = data[2];
	const char *in = (const char *)data + 3;
	size_t n = size - 3;

	for (unsigned fl = 0; fl < 2; fl++) {
		size_t len = termesc(full, sizeof(full), in, n, (size_t)-1, fl, NULL);
		if (len != strlen(full))
			abort();
		clean(full, len, fl);
		termesc(part, cap, in, n, cols, fl, NULL);
		size_t pl = strlen(part);
		if (pl >= cap || memcmp(part, full, pl))
			abort();
		clean(part, pl, fl);
	}
	/* the stream filter, the input in pieces of split+1 bytes */
	int p[2];
	if (pipe(p))
		abort();
	FILE *f = termesc_fdopen(p[1], split & 1);
	if (!f)
		abort();
	for (size_t i = 0; i < n; i += split + 1) {
		size_t k = n - i < split + 1 ? n - i : split + 1;
		fwrite(in + i, 1, k, f);
		if (split & 2)
			fflush(f);
	}
	fclose(f);
	close(p[1]);
	size_t g = 0;
	ssize_t r;
	while ((r = read(p[0], got + g, sizeof(got) - 1 - g)) > 0)
		g += (size_t)r;
	close(p[0]);
	size_t len = termesc(full, sizeof(full), in, n, (size_t)-1, TERMESC_KEEP_NL, NULL);
	if (g != len || memcmp(got, full, len))
		abort();
	return 0;
}
