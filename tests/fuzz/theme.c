/* theme.c - fuzzes theme files: theme_parse on the input (no curses), then
 * every role's colours mapped for 256, 16 and 8 colour terminals; the first
 * line also goes to theme_parse_colour alone. */
#include <string.h>
#include "fuzz.h"
#include "ui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct theme t;
	struct colour c;
	char err[512];
	static const int ncolors[] = {256, 16, 8};

	if (size > 1 << 16)
		return -1;
	char *text = fuzz_text(data, size);
	char *nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	if (!theme_parse_colour(text, &c))
		for (int k = 0; k < 3; k++)
			theme_colour_index(&c, ncolors[k]);
	if (nl)
		*nl = '\n';
	if (!theme_parse(text, "fuzz.theme", &t, err, sizeof(err)))
		for (int r = 0; r < ROLE_COUNT; r++) {
			theme_role_name((enum role)r);
			for (int k = 0; k < 3; k++) {
				theme_colour_index(&t.role[r].fg, ncolors[k]);
				theme_colour_index(&t.role[r].bg, ncolors[k]);
			}
		}
	free(text);
	return 0;
}
