/* health.c - the SMART / Health Information log (log page 02h): decoding
 * the raw page, reading it (through nvme.c), JSON and a human report.
 * Declared in devmodel.h (the console codes against that one header).
 *
 * Layout (NVMe Base Specification 2.0, Figure 207), all little endian:
 *   0 critical warning   1..2 composite temperature (K)  3 available spare
 *   4 spare threshold    5 percentage used
 *   32/48 data units read/written (16 bytes each, units of 1000 x 512 B)
 *   64/80 host read/write commands   96 controller busy time (minutes)
 *   112 power cycles  128 power-on hours  144 unsafe shutdowns
 *   160 media and data integrity errors  176 error log entries
 *   192 warning composite temperature time (min, 4 bytes)
 *   196 critical composite temperature time (min)
 *   200 temperature sensors 1..8 (2 bytes each, K, 0 = not reported)
 *   216/220 thermal management temperature 1/2 transition counts
 *   224/228 total time in thermal management 1/2 (seconds)
 * A temperature of 0 K means "not implemented"; the temperature times mean
 * something only when Identify reports WCTEMP/CCTEMP, the thermal
 * management counters only when HCTMA is supported. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "dev/devmodel.h"
#include "dev/nvme.h"

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* 128-bit little-endian counter, saturated to 64 bits. */
static uint64_t le128(const uint8_t *p)
{
	return le(p + 8, 8) ? UINT64_MAX : le(p, 8);
}

int dev_health_decode(const void *log, size_t len, const struct dev_caps *caps,
		      struct dev_health *h)
{
	const uint8_t *p = log;
	bool known = caps && caps->caps_valid;
	uint64_t k;

	if (!p || len < 512)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->critical_warning = p[0];
	k = le(p + 1, 2);
	h->temperature_valid = k != 0;
	h->temperature_c = k ? (double)k - 273.15 : 0;
	h->avail_spare = p[3];
	h->spare_thresh = p[4];
	h->percent_used = p[5];
	h->data_units_read = le128(p + 32);
	h->data_units_written = le128(p + 48);
	h->host_read_commands = le128(p + 64);
	h->host_write_commands = le128(p + 80);
	h->ctrl_busy_minutes = le128(p + 96);
	h->power_cycles = le128(p + 112);
	h->power_on_hours = le128(p + 128);
	h->unsafe_shutdowns = le128(p + 144);
	h->media_errors = le128(p + 160);
	h->error_log_entries = le128(p + 176);
	h->warning_temp_minutes = (uint32_t)le(p + 192, 4);
	h->warning_temp_valid = !known || caps->wctemp_k;
	h->critical_temp_minutes = (uint32_t)le(p + 196, 4);
	h->critical_temp_valid = !known || caps->cctemp_k;
	for (int i = 0; i < DEV_MAX_SENSORS; i++) {
		k = le(p + 200 + 2 * i, 2);
		h->sensor_valid[i] = k != 0;
		h->sensors_c[i] = k ? (double)k - 273.15 : 0;
	}
	for (int i = 0; i < 2; i++) {
		h->thm_trans_count[i] = (uint32_t)le(p + 216 + 4 * i, 4);
		h->thm_total_seconds[i] = (uint32_t)le(p + 224 + 4 * i, 4);
	}
	h->thm_valid = !known || caps->hctma;
	return 0;
}

int dev_health_read(const char *path, struct dev_health *h, int *nvme_status, char *err,
		    size_t errlen)
{
	uint8_t log[512];
	struct dev_caps caps;
	int r;

	r = nvs_nvme_smart(path, log, &caps, nvme_status, err, errlen);
	if (r)
		return r;
	return dev_health_decode(log, sizeof(log), &caps, h);
}

const char *dev_cw_name(unsigned bit)
{
	static const char *const names[] = { "available_spare", "temperature", "reliability",
					     "read_only", "volatile_memory_backup",
					     "pmr_read_only" };

	return bit < NVS_ARRAY_SIZE(names) ? names[bit] : NULL;
}

const char *dev_cw_label(unsigned bit)
{
	/* the NVMe Base Specification's words for the bits of byte 0 */
	static const char *const labels[] = { "spare below threshold", "temperature",
					      "reliability degraded", "read-only",
					      "volatile backup failed", "PMR read-only" };

	return bit < NVS_ARRAY_SIZE(labels) ? labels[bit] : NULL;
}

size_t dev_cw_text(uint8_t cw, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned b = 0; b < 8; b++) {
		char tmp[24];
		const char *l = dev_cw_label(b);
		int w;

		if (!(cw & (1u << b)))
			continue;
		if (!l) {
			snprintf(tmp, sizeof(tmp), "reserved bit %u", b);
			l = tmp;
		}
		w = snprintf(len > n ? buf + n : NULL, len > n ? len - n : 0, "%s%s",
			     n ? ", " : "", l);
		if (w > 0)
			n += (size_t)w;
	}
	return n;
}

double dev_units_to_tb(uint64_t units)
{
	return (double)units * 512000.0 / 1e12;
}

/* Adds @v as a number, or null when !@valid. */
static void add_opt(cJSON *o, const char *key, double v, bool valid)
{
	if (valid)
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

void *dev_health_to_json(const struct dev_health *h, const char *device)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (!o)
		return NULL;
	if (device)
		cJSON_AddStringToObject(o, "device", device);
	cJSON_AddNumberToObject(o, "critical_warning", h->critical_warning);
	a = cJSON_AddArrayToObject(o, "critical_warning_names");
	for (unsigned b = 0; a && b < 8; b++)
		if (h->critical_warning & (1u << b)) {
			const char *n = dev_cw_name(b);
			char tmp[16];

			if (!n) {
				snprintf(tmp, sizeof(tmp), "reserved_bit%u", b);
				n = tmp;
			}
			cJSON_AddItemToArray(a, cJSON_CreateString(n));
		}
	add_opt(o, "temperature_c", h->temperature_c, h->temperature_valid);
	a = cJSON_AddArrayToObject(o, "sensors_c");
	for (int i = 0; a && i < DEV_MAX_SENSORS; i++)
		cJSON_AddItemToArray(a, h->sensor_valid[i] ? cJSON_CreateNumber(h->sensors_c[i])
							   : cJSON_CreateNull());
	cJSON_AddNumberToObject(o, "available_spare", h->avail_spare);
	cJSON_AddNumberToObject(o, "available_spare_threshold", h->spare_thresh);
	cJSON_AddNumberToObject(o, "percentage_used", h->percent_used);
	cJSON_AddNumberToObject(o, "data_units_read", (double)h->data_units_read);
	cJSON_AddNumberToObject(o, "data_units_written", (double)h->data_units_written);
	cJSON_AddNumberToObject(o, "data_read_tb", dev_units_to_tb(h->data_units_read));
	cJSON_AddNumberToObject(o, "data_written_tb", dev_units_to_tb(h->data_units_written));
	cJSON_AddNumberToObject(o, "host_read_commands", (double)h->host_read_commands);
	cJSON_AddNumberToObject(o, "host_write_commands", (double)h->host_write_commands);
	cJSON_AddNumberToObject(o, "controller_busy_minutes", (double)h->ctrl_busy_minutes);
	cJSON_AddNumberToObject(o, "power_cycles", (double)h->power_cycles);
	cJSON_AddNumberToObject(o, "power_on_hours", (double)h->power_on_hours);
	cJSON_AddNumberToObject(o, "unsafe_shutdowns", (double)h->unsafe_shutdowns);
	cJSON_AddNumberToObject(o, "media_errors", (double)h->media_errors);
	cJSON_AddNumberToObject(o, "error_log_entries", (double)h->error_log_entries);
	add_opt(o, "warning_temp_minutes", h->warning_temp_minutes, h->warning_temp_valid);
	add_opt(o, "critical_temp_minutes", h->critical_temp_minutes, h->critical_temp_valid);
	add_opt(o, "thermal_mgmt_t1_transitions", h->thm_trans_count[0], h->thm_valid);
	add_opt(o, "thermal_mgmt_t2_transitions", h->thm_trans_count[1], h->thm_valid);
	add_opt(o, "thermal_mgmt_t1_seconds", h->thm_total_seconds[0], h->thm_valid);
	add_opt(o, "thermal_mgmt_t2_seconds", h->thm_total_seconds[1], h->thm_valid);
	return o;
}

static void pr_opt(FILE *f, const char *label, double v, bool valid, const char *unit)
{
	if (valid)
		fprintf(f, "%-34s %.0f%s\n", label, v, unit);
	else
		fprintf(f, "%-34s N/A\n", label);
}

void dev_health_print(const struct dev_health *h, const char *device, FILE *f)
{
	fprintf(f, "SMART / health log for %s\n", device ? device : "?");
	char cw[160];

	dev_cw_text(h->critical_warning, cw, sizeof(cw));
	fprintf(f, "%-34s 0x%02x%s%s\n", "critical_warning", h->critical_warning, cw[0] ? " " : "",
		cw);
	if (h->temperature_valid)
		fprintf(f, "%-34s %.0f °C\n", "temperature", h->temperature_c);
	else
		fprintf(f, "%-34s N/A\n", "temperature");
	for (int i = 0; i < DEV_MAX_SENSORS; i++)
		if (h->sensor_valid[i])
			fprintf(f, "temperature sensor %-15d %.0f °C\n", i + 1, h->sensors_c[i]);
	fprintf(f, "%-34s %u%%\n", "available_spare", h->avail_spare);
	fprintf(f, "%-34s %u%%\n", "available_spare_threshold", h->spare_thresh);
	fprintf(f, "%-34s %u%%\n", "percentage_used", h->percent_used);
	fprintf(f, "%-34s %llu (%.3f TB)\n", "data_units_read",
		(unsigned long long)h->data_units_read, dev_units_to_tb(h->data_units_read));
	fprintf(f, "%-34s %llu (%.3f TB)\n", "data_units_written",
		(unsigned long long)h->data_units_written, dev_units_to_tb(h->data_units_written));
	fprintf(f, "%-34s %llu\n", "host_read_commands", (unsigned long long)h->host_read_commands);
	fprintf(f, "%-34s %llu\n", "host_write_commands",
		(unsigned long long)h->host_write_commands);
	fprintf(f, "%-34s %llu\n", "controller_busy_minutes",
		(unsigned long long)h->ctrl_busy_minutes);
	fprintf(f, "%-34s %llu\n", "power_cycles", (unsigned long long)h->power_cycles);
	fprintf(f, "%-34s %llu\n", "power_on_hours", (unsigned long long)h->power_on_hours);
	fprintf(f, "%-34s %llu\n", "unsafe_shutdowns", (unsigned long long)h->unsafe_shutdowns);
	fprintf(f, "%-34s %llu\n", "media_errors", (unsigned long long)h->media_errors);
	fprintf(f, "%-34s %llu\n", "error_log_entries", (unsigned long long)h->error_log_entries);
	pr_opt(f, "warning_temp_minutes", h->warning_temp_minutes, h->warning_temp_valid, " min");
	pr_opt(f, "critical_temp_minutes", h->critical_temp_minutes, h->critical_temp_valid,
	       " min");
	pr_opt(f, "thermal_mgmt_t1_transitions", h->thm_trans_count[0], h->thm_valid, "");
	pr_opt(f, "thermal_mgmt_t2_transitions", h->thm_trans_count[1], h->thm_valid, "");
	pr_opt(f, "thermal_mgmt_t1_seconds", h->thm_total_seconds[0], h->thm_valid, " s");
	pr_opt(f, "thermal_mgmt_t2_seconds", h->thm_total_seconds[1], h->thm_valid, " s");
}
