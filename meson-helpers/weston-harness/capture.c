/* The capture command: at every repaint of the first output, which pixels of a rectangle show one
 * colour, with the repaint's time and the output's latest presentation time. The benchmark reads
 * where a stroke ends in each composed picture from it (how far the drawing trails the finger). */

#define _GNU_SOURCE

#include "harness.h"

/* Frames kept at most: minutes at 60 Hz of a window-sized rectangle. */
#define CAPTURE_MAX_FRAMES 20000
#define CAPTURE_MAX_BYTES (768u << 20)

static uint64_t
timespec_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ull + (uint64_t)ts->tv_nsec;
}

void
harness_capture_detach(struct harness *h)
{
	struct capture_state *k = &h->capture;

	if (!k->output)
		return;
	wl_list_remove(&k->frame_listener.link);
	wl_list_remove(&k->output_destroy_listener.link);
	k->output = NULL;
}

static void
capture_forget(struct capture_state *k)
{
	free(k->data);
	k->data = NULL;
	k->frames = 0;
	k->size = 0;
	k->cap = 0;
}

/* How much of `pixel` is `color` blended over `background` (0-255), 0 for any other colour. Each
 * channel where the two differ gives an estimate; they must agree (a black line's edge is not a
 * red one's), and channels where the two are alike must show that value. Antialiased edges so
 * give the stroke's shape to a fraction of a pixel. */
static uint8_t
capture_coverage(uint32_t pixel, uint32_t color, uint32_t background)
{
	double sum = 0, lo = 1, hi = 0;
	int n = 0;

	for (int shift = 0; shift <= 16; shift += 8) {
		int p = (int)(pixel >> shift) & 0xff;
		int c = (int)(color >> shift) & 0xff;
		int b = (int)(background >> shift) & 0xff;

		if (abs(c - b) < 64) {
			if (abs(p - b) > 12 && abs(p - c) > 12)
				return 0;
			continue;
		}
		double a = (double)(p - b) / (double)(c - b);
		sum += a;
		n++;
		if (a < lo)
			lo = a;
		if (a > hi)
			hi = a;
	}
	if (n == 0 || hi - lo > 0.1)
		return 0;
	double a = sum / n;
	if (a <= 0)
		return 0;
	return a >= 1 ? 255 : (uint8_t)(a * 255 + 0.5);
}

/* frame_signal: the repaint is in the renderer's buffer; keep the mask of the colour. */
static void
capture_handle_frame(struct wl_listener *listener, void *data)
{
	struct capture_state *k = tt_container_of(listener, struct capture_state, frame_listener);
	struct harness *h = tt_container_of(k, struct harness, capture);
	struct weston_compositor *c = h->compositor;
	struct weston_output *output = k->output;
	size_t mask_bytes = k->coverage ? (size_t)k->width * k->height
				       : ((size_t)k->width * k->height + 7) / 8;
	size_t frame_bytes = 16 + mask_bytes;
	uint64_t repaint_ns = harness_monotonic_ns();
	uint64_t presented_ns = 0;
	struct timespec pres, mono;

	(void)data;
	if (!k->active || k->frames >= CAPTURE_MAX_FRAMES)
		return;
	/* The output's latest presentation time, on the monotonic clock (the presentation clock
	 * may be CLOCK_MONOTONIC_RAW: moved by their difference now). */
	if (output->frame_time.tv_sec || output->frame_time.tv_nsec) {
		clock_gettime(c->presentation_clock, &pres);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		presented_ns = timespec_ns(&output->frame_time) + timespec_ns(&mono) - timespec_ns(&pres);
	}
	if (k->size + frame_bytes > k->cap) {
		size_t cap = k->cap ? k->cap * 2 : frame_bytes * 64;
		uint8_t *n;

		if (cap > CAPTURE_MAX_BYTES)
			cap = CAPTURE_MAX_BYTES;
		if (k->size + frame_bytes > cap)
			return; /* full: the rest is dropped */
		n = realloc(k->data, cap);
		if (!n)
			return;
		k->data = n;
		k->cap = cap;
	}
	if (!c->renderer || !c->renderer->read_pixels ||
	    c->renderer->read_pixels(output, PIXMAN_a8r8g8b8, k->pixels,
				     k->x - output->x, k->y - output->y, k->width, k->height) < 0)
		return;
	uint8_t *frame = k->data + k->size;
	memcpy(frame, &repaint_ns, 8);
	memcpy(frame + 8, &presented_ns, 8);
	uint8_t *mask = frame + 16;
	memset(mask, 0, mask_bytes);
	if (k->coverage) {
		for (size_t i = 0; i < (size_t)k->width * k->height; i++)
			mask[i] = capture_coverage(k->pixels[i] & 0xffffff, k->color, k->background);
		k->size += frame_bytes;
		k->frames++;
		return;
	}
	for (size_t i = 0; i < (size_t)k->width * k->height; i++) {
		if ((k->pixels[i] & 0xffffff) == k->color)
			mask[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	k->size += frame_bytes;
	k->frames++;
}

static void
capture_handle_output_destroy(struct wl_listener *listener, void *data)
{
	struct capture_state *k = tt_container_of(listener, struct capture_state,
						  output_destroy_listener);
	struct harness *h = tt_container_of(k, struct harness, capture);

	(void)data;
	harness_capture_detach(h);
}

static int
capture_write(struct capture_state *k, const char *path, char *err, size_t errlen)
{
	char *tmp = NULL;
	FILE *f;
	int ret = -1;

	if (asprintf(&tmp, "%s.tt-harness-%d.tmp", path, (int)getpid()) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	f = fopen(tmp, "wbe");
	if (!f) {
		snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	fprintf(f, "tt-capture %d %d %d %d %d %zu\n", k->coverage ? 2 : 1, k->x, k->y, k->width,
		k->height, k->frames);
	if ((k->size && fwrite(k->data, 1, k->size, f) != k->size) || fclose(f) != 0) {
		snprintf(err, errlen, "cannot write '%s'", tmp);
	} else if (rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot rename to '%s': %s", path, strerror(errno));
	} else {
		ret = 0;
	}
	if (ret < 0)
		unlink(tmp);
	free(tmp);
	return ret;
}

/* capture start X Y W H RRGGBB [BACKGROUND] | capture stop | capture write PATH */
void
harness_cmd_capture(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct capture_state *k = &h->capture;
	long v[4];
	char err[512];

	if ((argc == 7 || argc == 8) && strcmp(argv[1], "start") == 0) {
		struct weston_output *output = harness_first_output(h);
		char *end, *bg_end = NULL;
		unsigned long color = strtoul(argv[6], &end, 16);
		unsigned long background = argc == 8 ? strtoul(argv[7], &bg_end, 16) : 0;

		for (int i = 0; i < 4; i++) {
			if (!harness_parse_long(argv[2 + i], i < 2 ? -100000 : 1, 100000, &v[i])) {
				harness_client_reply(cl, "error capture start: bad number '%s'", argv[2 + i]);
				return;
			}
		}
		if (*end || strlen(argv[6]) != 6) {
			harness_client_reply(cl, "error capture start: colour is RRGGBB, not '%s'", argv[6]);
			return;
		}
		if (argc == 8 && (*bg_end || strlen(argv[7]) != 6 || background == color)) {
			harness_client_reply(cl, "error capture start: background is RRGGBB, not the colour, not '%s'",
					     argv[7]);
			return;
		}
		if (!output) {
			harness_client_reply(cl, "error no output");
			return;
		}
		if (v[0] < output->x || v[1] < output->y || v[0] + v[2] > output->x + output->width ||
		    v[1] + v[3] > output->y + output->height) {
			harness_client_reply(cl, "error capture start: the rectangle leaves the output");
			return;
		}
		harness_capture_detach(h);
		capture_forget(k);
		free(k->pixels);
		k->pixels = malloc((size_t)v[2] * v[3] * 4);
		if (!k->pixels) {
			harness_client_reply(cl, "error out of memory");
			return;
		}
		k->x = (int)v[0];
		k->y = (int)v[1];
		k->width = (int)v[2];
		k->height = (int)v[3];
		k->color = (uint32_t)color;
		k->coverage = argc == 8;
		k->background = (uint32_t)background;
		k->active = true;
		k->output = output;
		k->frame_listener.notify = capture_handle_frame;
		wl_signal_add(&output->frame_signal, &k->frame_listener);
		k->output_destroy_listener.notify = capture_handle_output_destroy;
		wl_signal_add(&output->destroy_signal, &k->output_destroy_listener);
		harness_client_reply(cl, "ok");
	} else if (argc == 2 && strcmp(argv[1], "stop") == 0) {
		k->active = false;
		harness_capture_detach(h);
		harness_client_reply(cl, "ok %zu", k->frames);
	} else if (argc == 3 && strcmp(argv[1], "write") == 0) {
		if (capture_write(k, argv[2], err, sizeof err) < 0) {
			harness_client_reply(cl, "error %s", err);
			return;
		}
		harness_client_reply(cl, "ok %zu", k->frames);
		capture_forget(k);
	} else {
		harness_client_reply(cl, "error usage: capture start X Y WIDTH HEIGHT RRGGBB [BACKGROUND] | capture stop | capture write PATH");
	}
}

void
harness_capture_free(struct harness *h)
{
	harness_capture_detach(h);
	capture_forget(&h->capture);
	free(h->capture.pixels);
	h->capture.pixels = NULL;
}
