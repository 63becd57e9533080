/* pi.h - NVMe end-to-end protection information (PI) and metadata on the
 * passthrough engine, as fio's io_uring_cmd does it (engines/nvme.c):
 * the options md_per_io_size, pi_act, pi_chk, apptag and apptag_mask, the
 * command fields they set (PRINFO in CDW12, the initial reference tag in
 * CDW14 (and CDW3 for the 64-bit guard's 48-bit tag), the application tag
 * and mask in CDW15), and the PI tuple that nvscope writes itself when
 * pi_act=0 and checks on reads, in fio's two formats: 8 bytes with a
 * 16-bit guard (T10-DIF CRC16, polynomial 0x8BB7) and a 32-bit reference
 * tag, or 16 bytes with a 64-bit guard (CRC-64/NVMe, NVM Command Set 2.0)
 * and a 48-bit reference tag.
 *
 * A namespace's format (struct pi_fmt) comes from Identify Namespace
 * (io/core/target.c): LBA data size, metadata size (LBAF.MS), extended LBA or a
 * separate metadata buffer (FLBAS bit 4), PI type and place (DPS), and the
 * guard format (PIF of the Identify NVM namespace's ELBAF, dev/nvme.c).
 * No function here allocates; all run on the submit/complete path. */
#ifndef NVS_PI_H
#define NVS_PI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/opt.h"

/* CDW12 PRINFO bits (NVM Command Set: Read/Write, fio's nvme.h) */
#define PI_PRCHK_REF	(1u << 26)
#define PI_PRCHK_APP	(1u << 27)
#define PI_PRCHK_GUARD	(1u << 28)
#define PI_PRACT	(1u << 29)
#define PI_PRCHK_ALL	(PI_PRCHK_REF | PI_PRCHK_APP | PI_PRCHK_GUARD)
#define PI_TUPLE_SIZE	8u  /* 16-bit guard: guard, application tag, reference tag */
#define PI_TUPLE64_SIZE 16u /* 64-bit guard: guard, application tag, 48-bit reference tag */
/* The guard formats (Identify NVM namespace ELBAF bits 8:7, PIF) */
#define PI_PIF_16 0u /* 16-bit guard, T10-DIF CRC16 */
#define PI_PIF_32 1u /* 32-bit guard, CRC-32C: needs a storage tag (not implemented) */
#define PI_PIF_64 2u /* 64-bit guard, CRC-64/NVMe */

/* A namespace's format as an I/O moves it. */
struct pi_fmt {
	uint32_t lba_data; /* data bytes per LBA (LBADS) */
	uint32_t ms;	   /* metadata bytes per LBA moved with the data (0: none) */
	uint32_t stride;   /* bytes per LBA in the data buffer: lba_data, + ms if ext */
	bool ext;	   /* metadata interleaved after each LBA's data (extended LBA) */
	uint8_t type;	   /* PI type 0 (none), 1, 2, 3 (DPS bits 2:0) */
	bool first;	   /* PI in the first metadata bytes (DPS bit 3), else the last */
	uint8_t pif;	   /* guard format: PI_PIF_16 or PI_PIF_64 (others are refused) */
};

/* The T10-DIF CRC16 (polynomial 0x8BB7, initial value 0, no reflection),
 * continued from @crc over @len bytes. */
uint16_t pi_crc16(uint16_t crc, const void *buf, size_t len);

/* CRC-64/NVMe (NVM Command Set 5.3.1.3: polynomial 0xAD93D23594C93659,
 * reflected, initial value and final XOR all ones; check value of
 * "123456789" AE8B14860A799888h), fio's fio_crc64_nvme: @crc 0 starts,
 * a previous result continues. */
uint64_t pi_crc64(uint64_t crc, const void *buf, size_t len);

/* The tuple's size: PI_TUPLE_SIZE, or PI_TUPLE64_SIZE for the 64-bit guard. */
uint32_t pi_tuple_size(const struct pi_fmt *f);

/* Where the tuple lies: its offset in each LBA's stride of the data buffer
 * (extended LBA) or in each LBA's metadata (separate buffer). */
uint32_t pi_tuple_off(const struct pi_fmt *f);

/* Fills the tuples of @nlb LBAs from @slba (pi_act=0 writes): the guard
 * when @chk has PI_PRCHK_GUARD (CRC16 or CRC64 of the data and the
 * metadata bytes before the tuple), the application tag @apptag with
 * PI_PRCHK_APP, the reference tag (types 1 and 2: the LBA's low 32 bits,
 * its low 48 bits with the 64-bit guard) with PI_PRCHK_REF;
 * fields not checked keep their bytes, as fio's.  @md is the separate
 * metadata buffer (unused for an extended LBA format). */
void pi_generate(const struct pi_fmt *f, uint32_t chk, uint16_t apptag, void *buf, void *md,
		 uint64_t slba, uint32_t nlb);

/* Checks the tuples a read returned, as fio does with pi_act=0: LBAs whose
 * application tag is FFFFh (type 3: and the reference tag all ones) are not
 * checked; else the fields @chk asks for.  0, or -EIO with fio's wording
 * ("Guard compare error: LBA: N Expected=x, Actual=y") in @err. */
int pi_verify(const struct pi_fmt *f, uint32_t chk, uint16_t apptag, uint16_t mask, const void *buf,
	      const void *md, uint64_t slba, uint32_t nlb, char *err, size_t errlen);

/* The command fields of a Read/Write of @slba on a namespace with PI (fio's
 * fio_nvme_pi_fill): PRACT when @act and the PRCHK bits of @chk ORed into
 * *@cdw12; the initial reference tag (types 1 and 2) when the reference
 * tag is checked: the low 32 bits of @slba in *@cdw14, with the 64-bit
 * guard bits 47:32 in *@cdw3; mask << 16 | apptag in *@cdw15 when the
 * application tag is.  Nothing on a format without PI. */
void pi_cmd(const struct pi_fmt *f, bool act, uint32_t chk, uint16_t apptag, uint16_t mask,
	    uint64_t slba, uint32_t *cdw3, uint32_t *cdw12, uint32_t *cdw14, uint32_t *cdw15);

/* ": end-to-end guard check error" for the PI statuses (and a few
 * others) of an NVMe completion status (SCT << 8 | SC), else "". */
const char *pi_status_name(uint16_t status);

struct spec;
/* fio's apptag, apptag_mask, md_per_io_size, pi_act, pi_chk (the names in pi_opts): a row each in
 * io/opt/opt.c's one table. */
#define PI_NOPTS 5
extern const struct opt_row pi_opts[PI_NOPTS];
/* They act on ioengine=io_uring_cmd only: 0 or -EINVAL. */
int pi_spec_validate(const struct spec *s, char *err, size_t errlen);
/* "GUARD,REFTAG,APPTAG" (fio's spelling) of @chk into @buf ("" for none). */
const char *pi_chk_name(uint32_t chk, char *buf, size_t len);

#endif
