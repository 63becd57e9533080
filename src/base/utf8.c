/* utf8.c - UTF-8 validation (RFC 3629, Table 3-7 of Unicode) and repair. */
#include <stdlib.h>
#include <string.h>
#include "base/utf8.h"

size_t utf8_seq_len(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (!len)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0; /* continuation byte, overlong lead (c0 c1) or > U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0; /* overlong */
	else if (s[0] == 0xed)
		hi = 0x9f; /* surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90; /* overlong */
	else if (s[0] == 0xf4)
		hi = 0x8f; /* > U+10FFFF */
	if (len < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

bool utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq_len(s + i, len - i);
		if (!n)
			return false;
		i += n;
	}
	return true;
}

char *utf8_repair(const char *s)
{
	size_t len = strlen(s), o = 0;
	char *out = malloc(len * 3 + 1); /* every byte may become 3 */

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_seq_len(s + i, len - i);
		if (n) {
			memcpy(out + o, s + i, n);
			o += n;
			i += n;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
	return out;
}
