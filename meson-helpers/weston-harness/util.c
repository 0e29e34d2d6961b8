/* Small utilities: a growable string buffer, JSON strings, number parsing, the clock. */

#define _GNU_SOURCE

#include "harness.h"

/* ------------------------------------------------------------------------ */
/* small utilities                                                          */

static void
sb_reserve(struct strbuf *sb, size_t extra)
{
	size_t need;
	char *n;

	if (sb->failed)
		return;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < need)
		cap *= 2;
	n = realloc(sb->data, cap);
	if (!n) {
		sb->failed = true;
		return;
	}
	sb->data = n;
	sb->cap = cap;
}

void
harness_sb_append(struct strbuf *sb, const char *s, size_t n)
{
	sb_reserve(sb, n);
	if (sb->failed)
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void
harness_sb_puts(struct strbuf *sb, const char *s)
{
	harness_sb_append(sb, s, strlen(s));
}

void __attribute__((format(printf, 2, 3)))
harness_sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	sb_reserve(sb, (size_t)n);
	if (sb->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void
harness_sb_free(struct strbuf *sb)
{
	free(sb->data);
	memset(sb, 0, sizeof *sb);
}

/* Length of the valid UTF-8 sequence at s (max n bytes), or 0 if invalid. */
static size_t
utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* Appends s as a JSON string literal; invalid UTF-8 becomes U+FFFD. */
void
harness_sb_json_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);

	harness_sb_puts(sb, "\"");
	while (n > 0) {
		size_t l;

		switch (*p) {
		case '"':  harness_sb_puts(sb, "\\\""); l = 1; break;
		case '\\': harness_sb_puts(sb, "\\\\"); l = 1; break;
		case '\b': harness_sb_puts(sb, "\\b"); l = 1; break;
		case '\f': harness_sb_puts(sb, "\\f"); l = 1; break;
		case '\n': harness_sb_puts(sb, "\\n"); l = 1; break;
		case '\r': harness_sb_puts(sb, "\\r"); l = 1; break;
		case '\t': harness_sb_puts(sb, "\\t"); l = 1; break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				harness_sb_printf(sb, "\\u%04x", *p);
				l = 1;
			} else {
				l = utf8_seq_len(p, n);
				if (l == 0) {
					harness_sb_puts(sb, "\\ufffd");
					l = 1;
				} else {
					harness_sb_append(sb, (const char *)p, l);
				}
			}
		}
		p += l;
		n -= l;
	}
	harness_sb_puts(sb, "\"");
}

struct timespec
harness_now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts;
}

uint64_t
harness_monotonic_ns(void)
{
	struct timespec ts = harness_now_monotonic();

	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

bool
harness_parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || *end != '\0' || !isfinite(v))
		return false;
	*out = v;
	return true;
}

bool
harness_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return false;
	*out = v;
	return true;
}

struct weston_output *
harness_first_output(struct harness *h)
{
	struct weston_output *output;

	wl_list_for_each(output, &h->compositor->output_list, link)
		return output;
	return NULL;
}
