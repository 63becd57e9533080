/* num.c - strict number parsing and range-checked conversions. */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "base/num.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_init(void)
{
	c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int num_scan_u64(const char *s, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	bool range = false;
	const char *p = s;

	if (!s || !is_digit(*s))
		return -EINVAL;
	for (; is_digit(*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			range = true;
		else
			v = v * 10 + d;
	}
	*end = p;
	if (range)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	const char *end;
	uint64_t v;
	int rc = num_scan_u64(s, &end, &v);

	if (rc == -EINVAL || *end)
		return -EINVAL;
	if (rc || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_uint(const char *s, unsigned min, unsigned max, unsigned *out)
{
	uint64_t v;
	int rc = num_parse_u64(s, min, max, &v);

	if (!rc)
		*out = (unsigned)v;
	return rc;
}

int num_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	bool neg = s && *s == '-';
	uint64_t mag, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	int rc = num_parse_u64(neg ? s + 1 : s, 0, UINT64_MAX, &mag);
	int64_t v;

	if (rc)
		return rc;
	if (mag > lim)
		return -ERANGE;
	v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) : (int64_t)mag;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* [+-]? (digits [. digits*] | . digits) ([eE] [+-]? digits)?: the length
 * of the number at @s, 0 when there is none. */
static size_t decimal_len(const char *s)
{
	const char *p = s;
	size_t ni = 0, nf = 0;

	if (*p == '+' || *p == '-')
		p++;
	for (; is_digit(*p); p++)
		ni++;
	if (*p == '.')
		for (p++; is_digit(*p); p++)
			nf++;
	if (!ni && !nf)
		return 0;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;
		if (*q == '+' || *q == '-')
			q++;
		if (is_digit(*q)) {
			while (is_digit(*q))
				q++;
			p = q;
		}
	}
	return (size_t)(p - s);
}

int num_scan_double(const char *s, const char **end, double *out)
{
	size_t len;
	char *e;
	double v;

	if (!s || !(len = decimal_len(s)))
		return -EINVAL;
	pthread_once(&c_locale_once, c_locale_init);
	if (!c_locale)
		return -EINVAL;
	v = strtod_l(s, &e, c_locale);
	if (e != s + len)
		return -EINVAL; /* strtod read something else (hex, ...) */
	*end = e;
	if (!isfinite(v))
		return -ERANGE;
	*out = v;
	return 0;
}

int num_parse_double(const char *s, double min, double max, double *out)
{
	const char *end;
	double v;
	int rc = num_scan_double(s, &end, &v);

	if (rc == -EINVAL || (!rc && *end))
		return -EINVAL;
	if (rc || !(v >= min && v <= max))
		return -ERANGE;
	*out = v == 0 ? 0 : v; /* no -0 */
	return 0;
}

int num_parse_pct(const char *s, double *out)
{
	size_t n = s ? strlen(s) : 0;
	char buf[64];

	if (n && s[n - 1] == '%') {
		if (n - 1 >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, s, n - 1);
		buf[n - 1] = '\0';
		s = buf;
	}
	return num_parse_double(s, 0, 100, out);
}

struct unit {
	const char *name;
	uint64_t mult;
};

static const struct unit *find_unit(const struct unit *u, const char *name)
{
	for (; u->name; u++)
		if (!strcasecmp(u->name, name))
			return u;
	return NULL;
}

int num_parse_size(const char *s, uint64_t *out)
{
	/* fio's get_mult_bytes() with kb_base=1024: "k" and "kB" are binary,
	 * "KiB" is 1000 ("opposite units, for compatibility with old scripts") */
	static const struct unit units[] = {
	    {"", 1},
	    {"b", 1},
	    {"k", 1ULL << 10},
	    {"kb", 1ULL << 10},
	    {"kib", 1000ULL},
	    {"m", 1ULL << 20},
	    {"mb", 1ULL << 20},
	    {"mib", 1000000ULL},
	    {"g", 1ULL << 30},
	    {"gb", 1ULL << 30},
	    {"gib", 1000000000ULL},
	    {"t", 1ULL << 40},
	    {"tb", 1ULL << 40},
	    {"tib", 1000000000000ULL},
	    {"p", 1ULL << 50},
	    {"pb", 1ULL << 50},
	    {"pib", 1000000000000000ULL},
	    {NULL, 0},
	};
	const struct unit *u;
	const char *end;
	uint64_t v;
	int rc = num_scan_u64(s, &end, &v);

	if (rc == -EINVAL || !(u = find_unit(units, end)))
		return -EINVAL;
	if (rc || v > UINT64_MAX / u->mult)
		return -ERANGE;
	*out = v * u->mult;
	return 0;
}

int num_parse_time_ns(const char *s, uint64_t unit_ns, uint64_t *out)
{
	static const struct unit units[] = {
	    {"ns", 1ULL},
	    {"nsec", 1ULL},
	    {"us", 1000ULL},
	    {"usec", 1000ULL},
	    {"ms", 1000000ULL},
	    {"msec", 1000000ULL},
	    {"s", 1000000000ULL},
	    {"sec", 1000000000ULL},
	    {"m", 60000000000ULL},
	    {"min", 60000000000ULL},
	    {"h", 3600000000000ULL},
	    {"d", 86400000000000ULL},
	    {NULL, 0},
	};
	const struct unit *u;
	const char *end;
	uint64_t whole = 0, mult;
	double frac = 0;
	int rc;

	if (!s || !(is_digit(*s) || (*s == '.' && is_digit(s[1]))))
		return -EINVAL;
	/* the whole part exactly, the fraction (< 1 unit) through a double */
	rc = *s == '.' ? 0 : num_scan_u64(s, &end, &whole);
	if (*s == '.')
		end = s;
	if (rc == -EINVAL)
		return -EINVAL;
	if (*end == '.') {
		const char *f = end;
		char buf[32] = "0";
		size_t n;
		for (end++; is_digit(*end); end++)
			;
		n = (size_t)(end - f);
		if (n > sizeof(buf) - 2)
			n = sizeof(buf) - 2; /* digits beyond 1e-29 of a unit change nothing */
		memcpy(buf + 1, f, n);
		buf[n + 1] = '\0';
		if (num_parse_double(buf, 0, 1, &frac))
			return -EINVAL;
	}
	if (!*end)
		mult = unit_ns;
	else if ((u = find_unit(units, end)))
		mult = u->mult;
	else
		return -EINVAL;
	if (rc || !mult || whole > UINT64_MAX / mult)
		return -ERANGE;
	whole *= mult;
	uint64_t f = (uint64_t)(frac * (double)mult + 0.5); /* < 2^47: exact enough */
	if (whole > UINT64_MAX - f)
		return -ERANGE;
	*out = whole + f;
	return 0;
}

int num_to_u64(double v, uint64_t max, uint64_t *out)
{
	uint64_t u;

	if (!(v >= 0) || v >= 0x1p64)
		return -ERANGE;
	u = (uint64_t)v;
	if (u > max)
		return -ERANGE;
	*out = u;
	return 0;
}

int num_to_i64(double v, int64_t min, int64_t max, int64_t *out)
{
	int64_t i;

	if (!(v >= -0x1p63 && v < 0x1p63))
		return -ERANGE; /* NaN too */
	i = (int64_t)v;
	if (i < min || i > max)
		return -ERANGE;
	*out = i;
	return 0;
}
