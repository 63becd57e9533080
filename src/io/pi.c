/* pi.c - NVMe protection information: the T10-DIF CRC16, the PI tuple, the
 * command fields and fio's options (pi.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/pi.h"
#include "io/spec.h"

#define PI_APP_ESCAPE 0xffffu
#define PI_REF_ESCAPE 0xffffffffu

/* CRC16 T10-DIF, MSB first: crc_table[i] is the CRC of the byte i << 8
 * for polynomial 0x8BB7 (generated; tests/unit/test_pi.c checks it
 * against the bitwise definition and the published check value). */
static const uint16_t crc_table[256] = {
    0x0000, 0x8bb7, 0x9cd9, 0x176e, 0xb205, 0x39b2, 0x2edc, 0xa56b, 0xefbd, 0x640a, 0x7364, 0xf8d3,
    0x5db8, 0xd60f, 0xc161, 0x4ad6, 0x54cd, 0xdf7a, 0xc814, 0x43a3, 0xe6c8, 0x6d7f, 0x7a11, 0xf1a6,
    0xbb70, 0x30c7, 0x27a9, 0xac1e, 0x0975, 0x82c2, 0x95ac, 0x1e1b, 0xa99a, 0x222d, 0x3543, 0xbef4,
    0x1b9f, 0x9028, 0x8746, 0x0cf1, 0x4627, 0xcd90, 0xdafe, 0x5149, 0xf422, 0x7f95, 0x68fb, 0xe34c,
    0xfd57, 0x76e0, 0x618e, 0xea39, 0x4f52, 0xc4e5, 0xd38b, 0x583c, 0x12ea, 0x995d, 0x8e33, 0x0584,
    0xa0ef, 0x2b58, 0x3c36, 0xb781, 0xd883, 0x5334, 0x445a, 0xcfed, 0x6a86, 0xe131, 0xf65f, 0x7de8,
    0x373e, 0xbc89, 0xabe7, 0x2050, 0x853b, 0x0e8c, 0x19e2, 0x9255, 0x8c4e, 0x07f9, 0x1097, 0x9b20,
    0x3e4b, 0xb5fc, 0xa292, 0x2925, 0x63f3, 0xe844, 0xff2a, 0x749d, 0xd1f6, 0x5a41, 0x4d2f, 0xc698,
    0x7119, 0xfaae, 0xedc0, 0x6677, 0xc31c, 0x48ab, 0x5fc5, 0xd472, 0x9ea4, 0x1513, 0x027d, 0x89ca,
    0x2ca1, 0xa716, 0xb078, 0x3bcf, 0x25d4, 0xae63, 0xb90d, 0x32ba, 0x97d1, 0x1c66, 0x0b08, 0x80bf,
    0xca69, 0x41de, 0x56b0, 0xdd07, 0x786c, 0xf3db, 0xe4b5, 0x6f02, 0x3ab1, 0xb106, 0xa668, 0x2ddf,
    0x88b4, 0x0303, 0x146d, 0x9fda, 0xd50c, 0x5ebb, 0x49d5, 0xc262, 0x6709, 0xecbe, 0xfbd0, 0x7067,
    0x6e7c, 0xe5cb, 0xf2a5, 0x7912, 0xdc79, 0x57ce, 0x40a0, 0xcb17, 0x81c1, 0x0a76, 0x1d18, 0x96af,
    0x33c4, 0xb873, 0xaf1d, 0x24aa, 0x932b, 0x189c, 0x0ff2, 0x8445, 0x212e, 0xaa99, 0xbdf7, 0x3640,
    0x7c96, 0xf721, 0xe04f, 0x6bf8, 0xce93, 0x4524, 0x524a, 0xd9fd, 0xc7e6, 0x4c51, 0x5b3f, 0xd088,
    0x75e3, 0xfe54, 0xe93a, 0x628d, 0x285b, 0xa3ec, 0xb482, 0x3f35, 0x9a5e, 0x11e9, 0x0687, 0x8d30,
    0xe232, 0x6985, 0x7eeb, 0xf55c, 0x5037, 0xdb80, 0xccee, 0x4759, 0x0d8f, 0x8638, 0x9156, 0x1ae1,
    0xbf8a, 0x343d, 0x2353, 0xa8e4, 0xb6ff, 0x3d48, 0x2a26, 0xa191, 0x04fa, 0x8f4d, 0x9823, 0x1394,
    0x5942, 0xd2f5, 0xc59b, 0x4e2c, 0xeb47, 0x60f0, 0x779e, 0xfc29, 0x4ba8, 0xc01f, 0xd771, 0x5cc6,
    0xf9ad, 0x721a, 0x6574, 0xeec3, 0xa415, 0x2fa2, 0x38cc, 0xb37b, 0x1610, 0x9da7, 0x8ac9, 0x017e,
    0x1f65, 0x94d2, 0x83bc, 0x080b, 0xad60, 0x26d7, 0x31b9, 0xba0e, 0xf0d8, 0x7b6f, 0x6c01, 0xe7b6,
    0x42dd, 0xc96a, 0xde04, 0x55b3,
};

uint16_t pi_crc16(uint16_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		crc = (uint16_t)((crc << 8) ^ crc_table[((crc >> 8) ^ p[i]) & 0xff]);
	return crc;
}

uint32_t pi_tuple_off(const struct pi_fmt *f)
{
	if (f->first)
		return f->ext ? f->lba_data : 0;
	return f->ext ? f->stride - PI_TUPLE_SIZE : f->ms - PI_TUPLE_SIZE;
}

static inline void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The guard of one LBA: its data, then the metadata before the tuple. */
static uint16_t lba_guard(const struct pi_fmt *f, const uint8_t *data, const uint8_t *md)
{
	uint32_t off = pi_tuple_off(f);

	if (f->ext)
		return pi_crc16(0, data, off);
	return pi_crc16(pi_crc16(0, data, f->lba_data), md, off);
}

void pi_generate(const struct pi_fmt *f, uint32_t chk, uint16_t apptag, void *buf, void *md,
		 uint64_t slba, uint32_t nlb)
{
	uint8_t *data = buf, *meta = md;
	uint32_t off = pi_tuple_off(f);

	for (uint32_t i = 0; i < nlb; i++) {
		uint8_t *pi = f->ext ? data + off : meta + off;
		if (chk & PI_PRCHK_GUARD)
			put_be16(pi, lba_guard(f, data, meta));
		if (chk & PI_PRCHK_APP)
			put_be16(pi + 2, apptag);
		if ((chk & PI_PRCHK_REF) && (f->type == 1 || f->type == 2)) {
			uint32_t ref = (uint32_t)(slba + i);
			put_be16(pi + 4, (uint16_t)(ref >> 16));
			put_be16(pi + 6, (uint16_t)ref);
		}
		data += f->stride;
		if (!f->ext)
			meta += f->ms;
	}
}

int pi_verify(const struct pi_fmt *f, uint32_t chk, uint16_t apptag, uint16_t mask, const void *buf,
	      const void *md, uint64_t slba, uint32_t nlb, char *err, size_t errlen)
{
	const uint8_t *data = buf, *meta = md;
	uint32_t off = pi_tuple_off(f);

	for (uint32_t i = 0; i < nlb; i++) {
		const uint8_t *pi = f->ext ? data + off : meta + off;
		uint16_t app = get_be16(pi + 2);
		uint32_t ref = get_be32(pi + 4);
		unsigned long long lba = (unsigned long long)(slba + i);
		bool skip = f->type == 3 ? app == PI_APP_ESCAPE && ref == PI_REF_ESCAPE
					 : app == PI_APP_ESCAPE;
		if (!skip && (chk & PI_PRCHK_GUARD)) {
			uint16_t g = lba_guard(f, data, meta), got = get_be16(pi);
			if (g != got) {
				snprintf(err, errlen,
					 "Guard compare error: LBA: %llu Expected=%x, Actual=%x",
					 lba, g, got);
				return -EIO;
			}
		}
		if (!skip && (chk & PI_PRCHK_APP) && (app & mask) != (apptag & mask)) {
			snprintf(err, errlen,
				 "APPTAG compare error: LBA: %llu Expected=%x, Actual=%x", lba,
				 apptag & mask, app & mask);
			return -EIO;
		}
		if (!skip && (chk & PI_PRCHK_REF) && (f->type == 1 || f->type == 2) &&
		    ref != (uint32_t)(slba + i)) {
			snprintf(err, errlen,
				 "REFTAG compare error: LBA: %llu Expected=%x, Actual=%x", lba,
				 (uint32_t)(slba + i), ref);
			return -EIO;
		}
		data += f->stride;
		if (!f->ext)
			meta += f->ms;
	}
	return 0;
}

void pi_cmd(const struct pi_fmt *f, bool act, uint32_t chk, uint16_t apptag, uint16_t mask,
	    uint64_t slba, uint32_t *cdw12, uint32_t *cdw14, uint32_t *cdw15)
{
	if (!f->type)
		return;
	*cdw12 |= (act ? PI_PRACT : 0) | (chk & PI_PRCHK_ALL);
	if ((chk & PI_PRCHK_REF) && (f->type == 1 || f->type == 2))
		*cdw14 = (uint32_t)slba;
	if (chk & PI_PRCHK_APP)
		*cdw15 = (uint32_t)mask << 16 | apptag;
}

const char *pi_status_name(uint16_t status)
{
	unsigned sct = (status >> 8) & 7u, sc = status & 0xffu;

	if (sct == 2 && sc == 0x82)
		return ": end-to-end guard check error";
	if (sct == 2 && sc == 0x83)
		return ": end-to-end application tag check error";
	if (sct == 2 && sc == 0x84)
		return ": end-to-end reference tag check error";
	if (sct == 1 && sc == 0x81)
		return ": invalid protection information";
	if (sct == 2 && sc == 0x81)
		return ": unrecovered read error";
	if (sct == 0 && sc == 0x02)
		return ": invalid field in command";
	return "";
}

const char *pi_chk_name(uint32_t chk, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s%s", chk & PI_PRCHK_GUARD ? "GUARD" : "",
		 (chk & PI_PRCHK_GUARD) && (chk & (PI_PRCHK_REF | PI_PRCHK_APP)) ? "," : "",
		 chk & PI_PRCHK_REF ? "REFTAG" : "",
		 (chk & PI_PRCHK_REF) && (chk & PI_PRCHK_APP) ? "," : "",
		 chk & PI_PRCHK_APP ? "APPTAG" : "");
	return buf;
}

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

/* fio reads pi_chk with strstr (any text containing GUARD, REFTAG or
 * APPTAG); nvscope takes the same words separated by ',' (or ':', '|',
 * spaces) and refuses any other word, where fio would check nothing. */
static int parse_chk(const char *v, uint32_t *out, char *err, size_t errlen)
{
	uint32_t chk = 0;
	const char *p = v;

	while (*p) {
		size_t n = strcspn(p, ",:| ");
		if (n == 5 && !strncmp(p, "GUARD", 5))
			chk |= PI_PRCHK_GUARD;
		else if (n == 6 && !strncmp(p, "REFTAG", 6))
			chk |= PI_PRCHK_REF;
		else if (n == 6 && !strncmp(p, "APPTAG", 6))
			chk |= PI_PRCHK_APP;
		else if (n)
			BAD("pi_chk: '%.*s' is not GUARD, REFTAG or APPTAG (fio's upper-case "
			    "words)",
			    (int)(n > 40 ? 40 : n), p);
		p += n;
		if (*p)
			p++;
	}
	*out = chk;
	return 0;
}

/* fio's integers take hex ("0x0888", its examples' spelling) or decimal. */
static int parse_u16(const char *v, unsigned *out)
{
	unsigned x = 0;

	if (!v || (strncmp(v, "0x", 2) && strncmp(v, "0X", 2)))
		return v ? num_parse_uint(v, 0, 0xffff, out) : -EINVAL;
	v += 2;
	if (!*v)
		return -EINVAL;
	for (; *v; v++) {
		int d = *v >= '0' && *v <= '9'	 ? *v - '0'
			: *v >= 'a' && *v <= 'f' ? *v - 'a' + 10
			: *v >= 'A' && *v <= 'F' ? *v - 'A' + 10
						 : -1;
		if (d < 0)
			return -EINVAL;
		x = x * 16 + (unsigned)d;
		if (x > 0xffff)
			return -ERANGE;
	}
	*out = x;
	return 0;
}

int pi_spec_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	unsigned u;

	if (!strcmp(key, "md_per_io_size")) {
		uint64_t sz;
		if (!v || spec_parse_size(v, &sz) || sz > (16u << 20))
			BAD("md_per_io_size: '%s' is not a size up to 16M", v ? v : "");
		s->pi.md_per_io = (uint32_t)sz;
	} else if (!strcmp(key, "pi_act")) {
		if (!v || (strcmp(v, "0") && strcmp(v, "1")))
			BAD("pi_act: '%s' is not 0 or 1", v ? v : "");
		s->pi.act = v[0] == '1';
	} else if (!strcmp(key, "pi_chk")) {
		if (!v)
			BAD("pi_chk: needs a value (GUARD,REFTAG,APPTAG)");
		if (parse_chk(v, &s->pi.chk, err, errlen))
			return -EINVAL;
	} else if (!strcmp(key, "apptag") || !strcmp(key, "apptag_mask")) {
		if (parse_u16(v, &u))
			BAD("%s: '%s' is not a 16-bit value (0..0xffff)", key, v ? v : "");
		*(key[6] ? &s->pi.apptag_mask : &s->pi.apptag) = (uint16_t)u;
	} else {
		return -ENOENT;
	}
	s->pi.given = true;
	return 0;
}

int pi_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	if (s->pi.given && s->ioengine != ENGINE_IO_URING_CMD)
		BAD("md_per_io_size, pi_act, pi_chk, apptag and apptag_mask act on "
		    "ioengine=io_uring_cmd (NVMe passthrough) only; fio's io_uring engine's "
		    "block-layer PI (Linux 6.14 integrity attributes) is not implemented");
	return 0;
}
