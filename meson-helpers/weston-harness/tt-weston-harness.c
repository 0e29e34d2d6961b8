/*
 * tt-weston-harness: a Weston 10 plugin that lets end-to-end tests drive a
 * headless Weston through a line-based UNIX control socket: a seat
 * "tt-seat" with touch, pointer and keyboard, window listing, closing
 * windows, screenshots and a commit counter. The protocol is described in
 * ../README.md.
 *
 * Pinned to libweston 10 (Debian 12: weston 10.0.1). Several functions used
 * here are exported by libweston-10.so.0 but declared only in headers that
 * Debian does not install (libweston/backend.h, libweston/libweston-internal.h),
 * so they are declared below. Signatures checked against the Weston 10 source:
 *   - weston_seat_init(seat, compositor, name); weston_seat_release(seat)
 *   - int weston_seat_init_pointer(seat), int weston_seat_init_touch(seat)
 *   - int weston_seat_init_keyboard(seat, struct xkb_keymap *keymap):
 *     keymap == NULL builds and uses the compositor's global keymap
 *     (c->xkb_names, set by weston's frontend from [keyboard] / defaults).
 *   - weston_touch_create_touch_device(touch, syspath (must be non-NULL),
 *     backend_data, ops); ops == NULL means "cannot calibrate", and then
 *     notify_touch_normalized() must get norm == NULL (it asserts this).
 *   - notify_touch_normalized(device, time, id, x, y, norm, type): x, y are
 *     GLOBAL compositor coordinates (doubles), not normalized ones; the
 *     "normalized" part is only the optional calibration point `norm`.
 *   - notify_touch_frame(device), notify_touch_cancel(device)
 *   - notify_motion_absolute(seat, time, double x, double y)   (global)
 *   - notify_button(seat, time, int32_t button, enum wl_pointer_button_state)
 *   - notify_axis(seat, time, struct weston_pointer_axis_event *)
 *   - notify_pointer_frame(seat)
 *   - notify_key(seat, time, uint32_t key, enum wl_keyboard_key_state,
 *                enum weston_key_state_update)
 *   - weston_output_damage(output)
 *   - renderer->read_pixels(output, pixman_format_code_t, pixels, x, y, w, h)
 *     (public in libweston 10; later versions take a pixel_format_info).
 * Weston 16 changed several of these (weston_coord_global etc.).
 *
 * Surprises / Weston 10 behaviour worth knowing:
 *   - notify_touch_cancel() sends nothing to clients: the default touch grab's
 *     cancel handler is empty, and num_tp / focus are left as they were. The
 *     "touch cancel" command therefore sends wl_touch.cancel to the focused
 *     client's wl_touch resources itself, calls notify_touch_cancel() (so that
 *     a shell grab, e.g. a touch move, is ended), and resets num_tp and the
 *     touch focus.
 *   - On the last touch up, Weston 10 clears the touch focus inside the up
 *     handling, so the wl_touch.frame that should follow is never sent to the
 *     client. This is NOT worked around here: tests must see real Weston.
 *   - notify_button() keeps a plain counter of pressed buttons; a release
 *     without a press underflows it and the pointer focus then never changes
 *     again. The plugin therefore rejects inconsistent button/key/touch
 *     sequences with "error ...".
 *   - The pixman renderer's read_pixels in Weston 10 returns rows top-down
 *     and pixman does not set WESTON_CAP_CAPTURE_YFLIP; the flag is honoured
 *     anyway.
 *   - The seat's pointer starts at (100, 100) (weston_pointer_create), so a
 *     window mapped under it gets wl_pointer.enter and may set a cursor
 *     sprite, which then shows in screenshots.
 *   - libweston-desktop 10 marks the VIEW of an xdg_popup as mapped but never
 *     its surface (weston_surface_is_mapped() stays false), so "windows" uses
 *     view mapping for popups. The role names are "xdg_toplevel"/"xdg_popup".
 *   - kiosk-shell 10 aborts on shutdown (assertion `shsurf' in
 *     kiosk_shell_destroy_surfaces_on_layer) if an xdg_popup is still mapped,
 *     whether shut down by "quit" or by SIGTERM; the control socket is then
 *     left behind (the next start unlinks a stale socket).
 *   - Weston's presentation clock here is CLOCK_MONOTONIC_RAW; input event
 *     times are CLOCK_MONOTONIC as real evdev devices stamp them.
 *   - The commit counter counts commits after which surface->damage is
 *     non-empty. Weston accumulates surface damage until the next repaint,
 *     so an empty-damage commit that follows a damaged one before a repaint
 *     is counted as well (rare with frame-callback-throttled clients).
 */

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>

#include <cairo.h>
#include <pixman.h>
#include <wayland-server.h>
#include <libweston/libweston.h>
#include <libweston-desktop/libweston-desktop.h>

/* ------------------------------------------------------------------------ */
/* libweston 10.0.1 functions whose headers Debian does not install.          */

void weston_seat_init(struct weston_seat *seat, struct weston_compositor *ec,
		      const char *seat_name);
void weston_seat_release(struct weston_seat *seat);
int weston_seat_init_pointer(struct weston_seat *seat);
int weston_seat_init_keyboard(struct weston_seat *seat,
			      struct xkb_keymap *keymap);
int weston_seat_init_touch(struct weston_seat *seat);
struct weston_touch_device *
weston_touch_create_touch_device(struct weston_touch *touch,
				 const char *syspath, void *backend_data,
				 const struct weston_touch_device_ops *ops);
void weston_touch_device_destroy(struct weston_touch_device *device);
void notify_touch_normalized(struct weston_touch_device *device,
			     const struct timespec *time, int touch_id,
			     double x, double y,
			     const struct weston_point2d_device_normalized *norm,
			     int touch_type);
void notify_touch_frame(struct weston_touch_device *device);
void notify_touch_cancel(struct weston_touch_device *device);
void notify_motion_absolute(struct weston_seat *seat,
			    const struct timespec *time, double x, double y);
void notify_button(struct weston_seat *seat, const struct timespec *time,
		   int32_t button, enum wl_pointer_button_state state);
void notify_axis(struct weston_seat *seat, const struct timespec *time,
		 struct weston_pointer_axis_event *event);
void notify_pointer_frame(struct weston_seat *seat);
void notify_key(struct weston_seat *seat, const struct timespec *time,
		uint32_t key, enum wl_keyboard_key_state state,
		enum weston_key_state_update update_state);
void weston_output_damage(struct weston_output *output);

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[]);

/* ------------------------------------------------------------------------ */

#define tt_container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))

#define SEAT_NAME "tt-seat"
#define TOUCH_SYSPATH "tt-harness-touch"
#define MAX_LINE 4096
#define MAX_TOUCH_POINTS 16
#define MAX_BUTTONS 16
#define MAX_EVDEV_CODE 0x2ff /* KEY_MAX */
#define SCREENSHOT_TIMEOUT_MS 10000

struct harness;

struct strbuf {
	char *data;
	size_t len, cap;
	bool failed;
};

struct hclient {
	struct harness *h;
	struct wl_list link; /* harness::clients */
	int fd;
	struct wl_event_source *source;
	char in[MAX_LINE];
	size_t in_len;
	bool discarding; /* inside an over-long line */
	struct strbuf out;
	bool busy;       /* waiting for an asynchronous reply */
	bool dead;
};

struct shot_job {
	struct wl_list link;
	struct hclient *client; /* NULL once the client went away */
	char *path;
};

struct shot_batch {
	struct harness *h;
	struct wl_list link; /* harness::batches */
	struct wl_list jobs;
	uint32_t *pixels;
	int width, height;
	char *error; /* non-NULL: fail every job with this message */
};

struct surface_tracker {
	struct harness *h;
	struct wl_list link; /* harness::trackers */
	struct weston_surface *surface;
	struct wl_listener commit_listener;
	struct wl_listener destroy_listener;
};

/* One injected touch frame and what the compositor saw of it (CLOCK_MONOTONIC ns, 0 = not yet). */
struct latency_record {
	uint64_t input_ns;   /* the frame was injected (notify_touch_frame) */
	uint64_t commit_ns;  /* the tracked client's next commit with damage */
	uint64_t repaint_ns; /* the end of the output repaint after that commit */
};

/* "latency start": input-to-commit and input-to-repaint of one client. Records are in input
 * order; commits and repaints complete them in order:
 * [0, first_unrepainted) done, [first_unrepainted, first_uncommitted) wait for a repaint,
 * [first_uncommitted, count) wait for a commit. */
struct latency_state {
	bool active;
	pid_t pid; /* 0: any client */
	struct latency_record *records;
	size_t count, cap;
	size_t first_uncommitted, first_unrepainted;
	uint64_t commits;  /* damaged commits of the tracked client while active */
	uint64_t last_point_ns;   /* the latest touch down/motion/up since the last frame, 0: none */
	uint64_t last_commit_ns;  /* the tracked client's latest damaged commit while active */
	uint64_t last_repaint_ns; /* the latest repaint end while active */
	uint64_t repaints; /* output repaints (frame_signal) while active */
	struct weston_output *output;
	struct wl_listener frame_listener;
	struct wl_listener output_destroy_listener;
};

struct harness {
	struct weston_compositor *compositor;
	struct wl_event_loop *loop;

	struct weston_seat seat;
	bool seat_initialized;
	struct weston_touch_device *touch_device;
	int touch_ids[MAX_TOUCH_POINTS];
	int n_touch_ids;
	int32_t buttons[MAX_BUTTONS];
	int n_buttons;

	char *socket_path;
	int listen_fd;
	struct wl_event_source *listen_source;
	struct wl_list clients;

	struct wl_listener destroy_listener;
	struct wl_listener create_surface_listener;
	struct wl_list trackers;
	uint64_t commits;

	/* screenshots */
	struct wl_list pending_shots; /* shot_job::link, waiting for a frame */
	struct wl_list batches;       /* shot_batch::link, waiting for the idle */
	struct weston_output *shot_output;
	struct wl_listener frame_listener;
	struct wl_listener shot_output_destroy_listener;
	struct wl_event_source *shot_timer;
	bool frame_armed;

	struct latency_state latency;
};

static void client_process_lines(struct hclient *cl);
static void client_destroy(struct hclient *cl);
static void latency_input_frame(struct harness *h);
static void latency_commit(struct harness *h, struct weston_surface *s);
static uint64_t monotonic_ns(void);

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

static void
sb_append(struct strbuf *sb, const char *s, size_t n)
{
	sb_reserve(sb, n);
	if (sb->failed)
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

static void
sb_puts(struct strbuf *sb, const char *s)
{
	sb_append(sb, s, strlen(s));
}

static void __attribute__((format(printf, 2, 3)))
sb_printf(struct strbuf *sb, const char *fmt, ...)
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

static void
sb_free(struct strbuf *sb)
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
static void
sb_json_string(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n = strlen((const char *)p);

	sb_puts(sb, "\"");
	while (n > 0) {
		size_t l;

		switch (*p) {
		case '"':  sb_puts(sb, "\\\""); l = 1; break;
		case '\\': sb_puts(sb, "\\\\"); l = 1; break;
		case '\b': sb_puts(sb, "\\b"); l = 1; break;
		case '\f': sb_puts(sb, "\\f"); l = 1; break;
		case '\n': sb_puts(sb, "\\n"); l = 1; break;
		case '\r': sb_puts(sb, "\\r"); l = 1; break;
		case '\t': sb_puts(sb, "\\t"); l = 1; break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				sb_printf(sb, "\\u%04x", *p);
				l = 1;
			} else {
				l = utf8_seq_len(p, n);
				if (l == 0) {
					sb_puts(sb, "\\ufffd");
					l = 1;
				} else {
					sb_append(sb, (const char *)p, l);
				}
			}
		}
		p += l;
		n -= l;
	}
	sb_puts(sb, "\"");
}

static struct timespec
now_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts;
}

static bool
parse_double(const char *s, double *out)
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

static bool
parse_long(const char *s, long min, long max, long *out)
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

static struct weston_output *
first_output(struct harness *h)
{
	struct weston_output *output;

	wl_list_for_each(output, &h->compositor->output_list, link)
		return output;
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* client I/O                                                               */

/* Reads only while no reply is pending (commands are answered in order);
 * asks for writability while replies wait to be sent. */
static void
client_update_mask(struct hclient *cl)
{
	uint32_t mask = 0;

	if (cl->dead || !cl->source)
		return;
	if (!cl->busy)
		mask |= WL_EVENT_READABLE;
	if (cl->out.len)
		mask |= WL_EVENT_WRITABLE;
	wl_event_source_fd_update(cl->source, mask);
}

static void
client_flush(struct hclient *cl)
{
	size_t off = 0;

	if (cl->dead)
		return;
	while (off < cl->out.len) {
		ssize_t n = send(cl->fd, cl->out.data + off, cl->out.len - off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			cl->dead = true;
			break;
		}
		off += (size_t)n;
	}
	if (off > 0) {
		memmove(cl->out.data, cl->out.data + off, cl->out.len - off);
		cl->out.len -= off;
	}
	client_update_mask(cl);
}

static void __attribute__((format(printf, 2, 3)))
client_reply(struct hclient *cl, const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;
	int n;

	if (!cl || cl->dead)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		cl->dead = true;
		return;
	}
	/* A reply is exactly one line. */
	for (char *c = line; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	sb_append(&cl->out, line, (size_t)n);
	sb_append(&cl->out, "\n", 1);
	free(line);
	if (cl->out.failed)
		cl->dead = true;
	client_flush(cl);
}

static void
client_destroy(struct hclient *cl)
{
	struct harness *h = cl->h;
	struct shot_batch *b;
	struct shot_job *job;

	/* Screenshots still pending for this client are written, unanswered. */
	wl_list_for_each(job, &h->pending_shots, link)
		if (job->client == cl)
			job->client = NULL;
	wl_list_for_each(b, &h->batches, link)
		wl_list_for_each(job, &b->jobs, link)
			if (job->client == cl)
				job->client = NULL;

	wl_list_remove(&cl->link);
	if (cl->source)
		wl_event_source_remove(cl->source);
	close(cl->fd);
	sb_free(&cl->out);
	free(cl);
}

/* ------------------------------------------------------------------------ */
/* seat                                                                     */

static int
touch_id_index(struct harness *h, int id)
{
	for (int i = 0; i < h->n_touch_ids; i++)
		if (h->touch_ids[i] == id)
			return i;
	return -1;
}

static int
button_index(struct harness *h, int32_t code)
{
	for (int i = 0; i < h->n_buttons; i++)
		if (h->buttons[i] == code)
			return i;
	return -1;
}

static int
harness_seat_init(struct harness *h)
{
	struct weston_touch *touch;

	weston_seat_init(&h->seat, h->compositor, SEAT_NAME);
	h->seat_initialized = true;

	if (weston_seat_init_pointer(&h->seat) < 0) {
		weston_log("tt-harness: weston_seat_init_pointer failed\n");
		return -1;
	}
	/* NULL keymap: the compositor's global keymap (c->xkb_names). */
	if (weston_seat_init_keyboard(&h->seat, NULL) < 0) {
		weston_log("tt-harness: weston_seat_init_keyboard failed\n");
		return -1;
	}
	if (weston_seat_init_touch(&h->seat) < 0) {
		weston_log("tt-harness: weston_seat_init_touch failed\n");
		return -1;
	}
	touch = weston_seat_get_touch(&h->seat);
	h->touch_device = weston_touch_create_touch_device(touch, TOUCH_SYSPATH,
							   NULL, NULL);
	if (!h->touch_device) {
		weston_log("tt-harness: weston_touch_create_touch_device failed\n");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* commands: input                                                          */

/* One touch down, motion or up, checked against the points that are down. */
static int
touch_apply(struct harness *h, int type, long id, double x, double y,
	    const struct timespec *t, char *err, size_t errlen)
{
	int idx = touch_id_index(h, (int)id);

	switch (type) {
	case WL_TOUCH_DOWN:
		if (idx >= 0) {
			snprintf(err, errlen, "touch point %ld is already down", id);
			return -1;
		}
		if (h->n_touch_ids >= MAX_TOUCH_POINTS) {
			snprintf(err, errlen, "too many touch points down (max %d)",
				 MAX_TOUCH_POINTS);
			return -1;
		}
		h->touch_ids[h->n_touch_ids++] = (int)id;
		break;
	case WL_TOUCH_MOTION:
		if (idx < 0) {
			snprintf(err, errlen, "touch point %ld is not down", id);
			return -1;
		}
		break;
	case WL_TOUCH_UP:
		if (idx < 0) {
			snprintf(err, errlen, "touch point %ld is not down", id);
			return -1;
		}
		h->touch_ids[idx] = h->touch_ids[--h->n_touch_ids];
		break;
	}
	notify_touch_normalized(h->touch_device, t, (int)id, x, y, NULL, type);
	h->latency.last_point_ns = monotonic_ns();
	return 0;
}

static void
touch_frame(struct harness *h)
{
	notify_touch_frame(h->touch_device);
	latency_input_frame(h);
}

/* Cancels every touch point: wl_touch.cancel to the focused client (Weston 10's default grab
 * sends nothing), notify_touch_cancel for a shell grab, and Weston's touch state reset as the
 * last up would (num_tp, idle inhibits, focus). Returns the number of resources told. */
static int
touch_cancel_all(struct harness *h)
{
	struct weston_touch *touch = weston_seat_get_touch(&h->seat);
	struct wl_resource *res;
	int sent = 0;

	if (touch->focus) {
		wl_resource_for_each(res, &touch->focus_resource_list) {
			wl_touch_send_cancel(res);
			sent++;
		}
	}
	/* Lets a shell grab (e.g. touch move) end itself. */
	notify_touch_cancel(h->touch_device);
	/* Reset what Weston would have reset on the last up. */
	if (touch->num_tp > 0) {
		uint32_t n = touch->num_tp;
		struct weston_compositor *c = h->compositor;

		c->idle_inhibit = c->idle_inhibit >= n ?
				  c->idle_inhibit - n : 0;
		touch->num_tp = 0;
		weston_compositor_wake(c);
	}
	weston_touch_set_focus(touch, NULL);
	h->n_touch_ids = 0;
	return sent;
}

static void
cmd_touch(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct timespec t = now_monotonic();
	char err[128];
	long id;
	double x, y;
	int type;

	if (argc < 2) {
		client_reply(cl, "error usage: touch down|motion ID X Y, touch up ID, touch frame, touch cancel");
		return;
	}
	if (strcmp(argv[1], "frame") == 0) {
		if (argc != 2) {
			client_reply(cl, "error usage: touch frame");
			return;
		}
		touch_frame(h);
		client_reply(cl, "ok");
		return;
	}
	if (strcmp(argv[1], "cancel") == 0) {
		if (argc != 2) {
			client_reply(cl, "error usage: touch cancel");
			return;
		}
		int sent = touch_cancel_all(h);
		weston_log("tt-harness: touch cancel sent to %d wl_touch resource(s)\n",
			   sent);
		client_reply(cl, "ok");
		return;
	}

	if (strcmp(argv[1], "down") == 0) {
		type = WL_TOUCH_DOWN;
	} else if (strcmp(argv[1], "motion") == 0) {
		type = WL_TOUCH_MOTION;
	} else if (strcmp(argv[1], "up") == 0) {
		type = WL_TOUCH_UP;
	} else {
		client_reply(cl, "error unknown touch action '%s' (down, motion, up, frame, cancel)",
			     argv[1]);
		return;
	}

	if (type == WL_TOUCH_UP ? argc != 3 : argc != 5) {
		client_reply(cl, type == WL_TOUCH_UP ?
			     "error usage: touch up ID" :
			     "error usage: touch down|motion ID X Y");
		return;
	}
	if (!parse_long(argv[2], 0, INT32_MAX, &id)) {
		client_reply(cl, "error bad touch id '%s' (integer 0..2147483647)",
			     argv[2]);
		return;
	}
	x = y = 0.0;
	if (type != WL_TOUCH_UP &&
	    (!parse_double(argv[3], &x) || !parse_double(argv[4], &y))) {
		client_reply(cl, "error bad coordinates '%s' '%s'", argv[3], argv[4]);
		return;
	}

	if (touch_apply(h, type, id, x, y, &t, err, sizeof err) < 0)
		client_reply(cl, "error %s", err);
	else
		client_reply(cl, "ok");
}


/* touch batch: many touch events in one command, all stamped with the same time:
 * "d ID X Y" down, "m ID X Y" motion, "u ID" up, "f" frame. Applied in order; the first bad
 * token stops the batch (what came before it stays applied). */
static void
cmd_touch_batch(struct hclient *cl, char *args)
{
	struct harness *h = cl->h;
	struct timespec t = now_monotonic();
	char *rest = NULL, *tok;
	char err[160];
	int events = 0;

	for (tok = strtok_r(args, " \t", &rest); tok; tok = strtok_r(NULL, " \t", &rest)) {
		int type;
		long id;
		double x = 0.0, y = 0.0;
		char *a;

		if (strcmp(tok, "f") == 0) {
			touch_frame(h);
			events++;
			continue;
		}
		if (strcmp(tok, "d") == 0) {
			type = WL_TOUCH_DOWN;
		} else if (strcmp(tok, "m") == 0) {
			type = WL_TOUCH_MOTION;
		} else if (strcmp(tok, "u") == 0) {
			type = WL_TOUCH_UP;
		} else {
			client_reply(cl, "error touch batch: unknown event '%s' after %d events (d ID X Y, m ID X Y, u ID, f)",
				     tok, events);
			return;
		}
		a = strtok_r(NULL, " \t", &rest);
		if (!parse_long(a, 0, INT32_MAX, &id)) {
			client_reply(cl, "error touch batch: bad touch id after %d events", events);
			return;
		}
		if (type != WL_TOUCH_UP) {
			char *xs = strtok_r(NULL, " \t", &rest);
			char *ys = strtok_r(NULL, " \t", &rest);

			if (!parse_double(xs, &x) || !parse_double(ys, &y)) {
				client_reply(cl, "error touch batch: bad coordinates after %d events", events);
				return;
			}
		}
		if (touch_apply(h, type, id, x, y, &t, err, sizeof err) < 0) {
			client_reply(cl, "error touch batch: %s (after %d events)", err, events);
			return;
		}
		events++;
	}
	client_reply(cl, "ok %d", events);
}

/* touch raw: events straight to notify_touch_normalized, without touch_apply's checks, as a
 * confused or fast real device delivers them: a down for an id that is down, motion and up for
 * ids that are not, empty frames. Same syntax as touch batch plus "c" (touch cancel). What
 * Weston 10 does with them (libweston/input.c, notify_touch_normalized and
 * process_touch_normal): a down always counts a point (num_tp++) and goes to the focused client
 * (the first point picks the focus); a motion goes to the focused client whatever its id; an up
 * with no point counted is logged and dropped, otherwise it uncounts one and goes to the client,
 * and the count reaching 0 clears the focus; a frame goes to the focused client. Nothing there
 * asserts on ids, so no order crashes Weston; only the count can disagree with the ids, which
 * "c" (or touch cancel) resets. The plugin's own list of ids that are down is kept as well as
 * it can (a down adds its id when there is room, an up removes it) so that checked commands
 * still make sense afterwards. */
static void
cmd_touch_raw(struct hclient *cl, char *args)
{
	struct harness *h = cl->h;
	struct timespec t = now_monotonic();
	char *rest = NULL, *tok;
	int events = 0;

	for (tok = strtok_r(args, " \t", &rest); tok; tok = strtok_r(NULL, " \t", &rest)) {
		int type, idx;
		long id;
		double x = 0.0, y = 0.0;
		char *a;

		if (strcmp(tok, "f") == 0) {
			touch_frame(h);
			events++;
			continue;
		}
		if (strcmp(tok, "c") == 0) {
			touch_cancel_all(h);
			events++;
			continue;
		}
		if (strcmp(tok, "d") == 0) {
			type = WL_TOUCH_DOWN;
		} else if (strcmp(tok, "m") == 0) {
			type = WL_TOUCH_MOTION;
		} else if (strcmp(tok, "u") == 0) {
			type = WL_TOUCH_UP;
		} else {
			client_reply(cl, "error touch raw: unknown event '%s' after %d events (d ID X Y, m ID X Y, u ID, f, c)",
				     tok, events);
			return;
		}
		a = strtok_r(NULL, " \t", &rest);
		if (!parse_long(a, 0, INT32_MAX, &id)) {
			client_reply(cl, "error touch raw: bad touch id after %d events", events);
			return;
		}
		if (type != WL_TOUCH_UP) {
			char *xs = strtok_r(NULL, " \t", &rest);
			char *ys = strtok_r(NULL, " \t", &rest);

			if (!parse_double(xs, &x) || !parse_double(ys, &y)) {
				client_reply(cl, "error touch raw: bad coordinates after %d events", events);
				return;
			}
		}
		idx = touch_id_index(h, (int)id);
		if (type == WL_TOUCH_DOWN && idx < 0 && h->n_touch_ids < MAX_TOUCH_POINTS)
			h->touch_ids[h->n_touch_ids++] = (int)id;
		else if (type == WL_TOUCH_UP && idx >= 0)
			h->touch_ids[idx] = h->touch_ids[--h->n_touch_ids];
		notify_touch_normalized(h->touch_device, &t, (int)id, x, y, NULL, type);
		h->latency.last_point_ns = monotonic_ns();
		events++;
	}
	client_reply(cl, "ok %d", events);
}

static void
cmd_pointer(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct timespec t = now_monotonic();

	if (argc >= 2 && strcmp(argv[1], "motion") == 0) {
		double x, y;

		if (argc != 4 || !parse_double(argv[2], &x) ||
		    !parse_double(argv[3], &y)) {
			client_reply(cl, "error usage: pointer motion X Y");
			return;
		}
		notify_motion_absolute(&h->seat, &t, x, y);
		notify_pointer_frame(&h->seat);
		client_reply(cl, "ok");
		return;
	}
	if (argc >= 2 && strcmp(argv[1], "button") == 0) {
		long code;
		bool down;
		int idx;

		if (argc != 4 || !parse_long(argv[2], 0, MAX_EVDEV_CODE, &code) ||
		    (strcmp(argv[3], "down") != 0 && strcmp(argv[3], "up") != 0)) {
			client_reply(cl, "error usage: pointer button CODE down|up (evdev code, 272 = BTN_LEFT)");
			return;
		}
		down = strcmp(argv[3], "down") == 0;
		idx = button_index(h, (int32_t)code);
		if (down && idx >= 0) {
			client_reply(cl, "error button %ld is already down", code);
			return;
		}
		if (!down && idx < 0) {
			client_reply(cl, "error button %ld is not down", code);
			return;
		}
		if (down && h->n_buttons >= MAX_BUTTONS) {
			client_reply(cl, "error too many buttons down");
			return;
		}
		if (down)
			h->buttons[h->n_buttons++] = (int32_t)code;
		else
			h->buttons[idx] = h->buttons[--h->n_buttons];
		notify_button(&h->seat, &t, (int32_t)code,
			      down ? WL_POINTER_BUTTON_STATE_PRESSED :
				     WL_POINTER_BUTTON_STATE_RELEASED);
		notify_pointer_frame(&h->seat);
		client_reply(cl, "ok");
		return;
	}
	if (argc >= 2 && strcmp(argv[1], "axis") == 0) {
		struct weston_pointer_axis_event ev = { 0 };
		double value;

		if (argc != 4 || !parse_double(argv[3], &value) ||
		    (strcmp(argv[2], "vertical") != 0 &&
		     strcmp(argv[2], "horizontal") != 0)) {
			client_reply(cl, "error usage: pointer axis vertical|horizontal VALUE");
			return;
		}
		ev.axis = strcmp(argv[2], "vertical") == 0 ?
			  WL_POINTER_AXIS_VERTICAL_SCROLL :
			  WL_POINTER_AXIS_HORIZONTAL_SCROLL;
		ev.value = value;
		ev.has_discrete = false;
		notify_axis(&h->seat, &t, &ev);
		notify_pointer_frame(&h->seat);
		client_reply(cl, "ok");
		return;
	}
	client_reply(cl, "error usage: pointer motion X Y | pointer button CODE down|up | pointer axis vertical|horizontal VALUE");
}

static void
cmd_key(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct weston_keyboard *kb = weston_seat_get_keyboard(&h->seat);
	struct timespec t = now_monotonic();
	long code;
	bool down, pressed = false;
	uint32_t *k;

	if (argc != 3 || !parse_long(argv[1], 0, MAX_EVDEV_CODE, &code) ||
	    (strcmp(argv[2], "down") != 0 && strcmp(argv[2], "up") != 0)) {
		client_reply(cl, "error usage: key CODE down|up (evdev keycode, e.g. 1 = KEY_ESC)");
		return;
	}
	if (!kb) {
		client_reply(cl, "error the seat has no keyboard");
		return;
	}
	down = strcmp(argv[2], "down") == 0;
	wl_array_for_each(k, &kb->keys)
		if (*k == (uint32_t)code)
			pressed = true;
	if (down && pressed) {
		client_reply(cl, "error key %ld is already down", code);
		return;
	}
	if (!down && !pressed) {
		client_reply(cl, "error key %ld is not down", code);
		return;
	}
	notify_key(&h->seat, &t, (uint32_t)code,
		   down ? WL_KEYBOARD_KEY_STATE_PRESSED :
			  WL_KEYBOARD_KEY_STATE_RELEASED,
		   STATE_UPDATE_AUTOMATIC);
	client_reply(cl, "ok");
}

/* ------------------------------------------------------------------------ */
/* commands: windows                                                        */

static bool
view_is_xdg_window(struct weston_view *view, bool *popup)
{
	struct weston_surface *s = view->surface;
	const char *role;

	if (!s || !s->resource)
		return false;
	role = weston_surface_get_role(s);
	if (!role)
		return false;
	/* libweston-desktop 10 sets these role names (xdg-shell and v6). */
	if (strcmp(role, "xdg_toplevel") == 0)
		*popup = false;
	else if (strcmp(role, "xdg_popup") == 0)
		*popup = true;
	else
		return false;
	if (!weston_view_is_mapped(view) || s->width <= 0 || s->height <= 0)
		return false;
	/* libweston-desktop 10 marks only the view of a popup as mapped,
	 * never its surface; the shells map toplevel surfaces. */
	if (!*popup && !weston_surface_is_mapped(s))
		return false;
	return weston_surface_is_desktop_surface(s);
}

typedef bool (*view_visit_fn)(struct weston_view *view, bool popup, void *data);

/* Visits mapped xdg toplevel/popup views, top-most first. */
static void
for_each_window_view(struct harness *h, view_visit_fn fn, void *data)
{
	struct weston_layer *layer;
	struct weston_view *view;

	wl_list_for_each(layer, &h->compositor->layer_list, link) {
		wl_list_for_each(view, &layer->view_list.link, layer_link.link) {
			bool popup;

			if (!view_is_xdg_window(view, &popup))
				continue;
			if (!fn(view, popup, data))
				return;
		}
	}
}

struct windows_ctx {
	struct strbuf *sb;
	bool first;
};

static bool
append_window_json(struct weston_view *view, bool popup, void *data)
{
	struct windows_ctx *ctx = data;
	struct weston_surface *s = view->surface;
	struct weston_desktop_surface *ds = weston_surface_get_desktop_surface(s);
	const char *app_id = ds ? weston_desktop_surface_get_app_id(ds) : NULL;
	const char *title = ds ? weston_desktop_surface_get_title(ds) : NULL;
	pid_t pid = 0;
	uid_t uid;
	gid_t gid;
	float fx = 0, fy = 0;

	wl_client_get_credentials(wl_resource_get_client(s->resource),
				  &pid, &uid, &gid);
	weston_view_to_global_float(view, 0, 0, &fx, &fy);

	if (!ctx->first)
		sb_puts(ctx->sb, ",");
	ctx->first = false;
	sb_puts(ctx->sb, "{\"app_id\":");
	sb_json_string(ctx->sb, app_id);
	sb_puts(ctx->sb, ",\"title\":");
	sb_json_string(ctx->sb, title);
	sb_printf(ctx->sb, ",\"x\":%ld,\"y\":%ld,\"width\":%d,\"height\":%d,"
		  "\"popup\":%s,\"pid\":%d}",
		  lroundf(fx), lroundf(fy), s->width, s->height,
		  popup ? "true" : "false", (int)pid);
	return true;
}

static void
cmd_windows(struct hclient *cl, char **argv, int argc)
{
	struct strbuf sb = { 0 };
	struct windows_ctx ctx = { &sb, true };

	(void)argv;
	if (argc != 1) {
		client_reply(cl, "error usage: windows");
		return;
	}
	sb_puts(&sb, "[");
	for_each_window_view(cl->h, append_window_json, &ctx);
	sb_puts(&sb, "]");
	if (sb.failed)
		client_reply(cl, "error out of memory");
	else
		client_reply(cl, "ok %s", sb.data);
	sb_free(&sb);
}

struct close_ctx {
	const char *app_id;
	struct weston_desktop_surface *found;
};

static bool
find_toplevel(struct weston_view *view, bool popup, void *data)
{
	struct close_ctx *ctx = data;
	struct weston_desktop_surface *ds;
	const char *app_id;

	if (popup)
		return true;
	ds = weston_surface_get_desktop_surface(view->surface);
	app_id = ds ? weston_desktop_surface_get_app_id(ds) : NULL;
	if (strcmp(app_id ? app_id : "", ctx->app_id) != 0)
		return true;
	ctx->found = ds;
	return false;
}

static void
cmd_close(struct hclient *cl, const char *app_id)
{
	struct close_ctx ctx = { app_id, NULL };

	if (!app_id || !*app_id) {
		client_reply(cl, "error usage: close APP_ID");
		return;
	}
	for_each_window_view(cl->h, find_toplevel, &ctx);
	if (!ctx.found) {
		client_reply(cl, "error no window with app_id '%s'", app_id);
		return;
	}
	weston_desktop_surface_close(ctx.found);
	client_reply(cl, "ok");
}

/* resize W H APP_ID: a configure with that size, as a user's resize would send. */
static void
cmd_resize(struct hclient *cl, const char *args)
{
	struct close_ctx ctx = { NULL, NULL };
	int width, height, consumed = 0;

	if (sscanf(args, "%d %d %n", &width, &height, &consumed) != 2 || consumed == 0 ||
	    width <= 0 || height <= 0 || width > 16384 || height > 16384 || !args[consumed]) {
		client_reply(cl, "error usage: resize WIDTH HEIGHT APP_ID");
		return;
	}
	ctx.app_id = args + consumed;
	for_each_window_view(cl->h, find_toplevel, &ctx);
	if (!ctx.found) {
		client_reply(cl, "error no window with app_id '%s'", ctx.app_id);
		return;
	}
	weston_desktop_surface_set_size(ctx.found, width, height);
	client_reply(cl, "ok");
}

/* ------------------------------------------------------------------------ */
/* commands: screenshot                                                     */

static void shot_arm(struct harness *h);

static void
shot_disarm(struct harness *h)
{
	if (!h->frame_armed)
		return;
	wl_list_remove(&h->frame_listener.link);
	wl_list_remove(&h->shot_output_destroy_listener.link);
	wl_event_source_timer_update(h->shot_timer, 0);
	h->frame_armed = false;
	h->shot_output = NULL;
}

static cairo_status_t
png_write_chunk(void *closure, const unsigned char *data, unsigned int length)
{
	FILE *f = closure;

	return fwrite(data, 1, length, f) == length ?
	       CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int
write_png(const char *path, uint32_t *pixels, int width, int height,
	  char *err, size_t errlen)
{
	cairo_surface_t *surf = NULL;
	cairo_status_t st;
	char *tmp = NULL;
	FILE *f = NULL;
	int ret = -1;

	/* Write next to the target, then rename: readers never see half a PNG. */
	if (asprintf(&tmp, "%s.tt-harness-%d.tmp", path, (int)getpid()) < 0) {
		tmp = NULL;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	f = fopen(tmp, "wbe");
	if (!f) {
		snprintf(err, errlen, "cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	surf = cairo_image_surface_create_for_data((unsigned char *)pixels,
						   CAIRO_FORMAT_RGB24,
						   width, height, width * 4);
	st = cairo_surface_status(surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png_stream(surf, png_write_chunk, f);
	if (st != CAIRO_STATUS_SUCCESS) {
		snprintf(err, errlen, "cannot write '%s': %s", tmp,
			 cairo_status_to_string(st));
		goto out;
	}
	if (fclose(f) != 0) {
		f = NULL;
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	f = NULL;
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path,
			 strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (surf)
		cairo_surface_destroy(surf);
	if (f)
		fclose(f);
	if (ret < 0 && tmp)
		unlink(tmp);
	free(tmp);
	return ret;
}

static void
client_resume(struct hclient *cl)
{
	cl->busy = false;
	client_process_lines(cl);
	client_update_mask(cl);
}

/* Idle callback: write the PNGs of a batch and answer their clients. */
static void
shot_batch_finish(void *data)
{
	struct shot_batch *b = data;
	struct shot_job *job, *tmp;
	char err[512];

	wl_list_for_each_safe(job, tmp, &b->jobs, link) {
		struct hclient *cl = job->client;

		if (b->error) {
			if (cl)
				client_reply(cl, "error %s", b->error);
		} else if (write_png(job->path, b->pixels, b->width, b->height,
				     err, sizeof err) < 0) {
			weston_log("tt-harness: screenshot failed: %s\n", err);
			if (cl)
				client_reply(cl, "error %s", err);
		} else if (cl) {
			client_reply(cl, "ok %d %d", b->width, b->height);
		}
		wl_list_remove(&job->link);
		free(job->path);
		free(job);
		if (cl && !cl->dead)
			client_resume(cl);
		if (cl && cl->dead)
			client_destroy(cl);
	}
	wl_list_remove(&b->link);
	free(b->pixels);
	free(b->error);
	free(b);
}

/* Moves all pending jobs into a batch that is finished from an idle. */
static void
shot_complete_pending(struct harness *h, uint32_t *pixels, int width,
		      int height, const char *error)
{
	struct shot_batch *b = calloc(1, sizeof *b);

	if (!b) {
		/* Cannot do much; drop the pixels, leave jobs pending. */
		free(pixels);
		return;
	}
	b->h = h;
	wl_list_init(&b->jobs);
	wl_list_insert_list(&b->jobs, &h->pending_shots);
	wl_list_init(&h->pending_shots);
	b->pixels = pixels;
	b->width = width;
	b->height = height;
	b->error = error ? strdup(error) : NULL;
	wl_list_insert(h->batches.prev, &b->link);
	wl_event_loop_add_idle(h->loop, shot_batch_finish, b);
}

static void
shot_handle_frame(struct wl_listener *listener, void *data)
{
	struct harness *h = tt_container_of(listener, struct harness, frame_listener);
	struct weston_output *output = h->shot_output;
	struct weston_compositor *c = h->compositor;
	int width, height, stride;
	uint32_t *pixels;

	(void)data;
	shot_disarm(h);

	width = output->current_mode ? output->current_mode->width : output->width;
	height = output->current_mode ? output->current_mode->height : output->height;
	stride = width * 4;
	pixels = malloc((size_t)stride * (size_t)height);
	if (!pixels) {
		shot_complete_pending(h, NULL, 0, 0, "out of memory");
		return;
	}
	if (!c->renderer || !c->renderer->read_pixels ||
	    c->renderer->read_pixels(output, PIXMAN_a8r8g8b8, pixels, 0, 0,
				     (uint32_t)width, (uint32_t)height) < 0) {
		free(pixels);
		shot_complete_pending(h, NULL, 0, 0,
				      "the renderer could not read pixels (start weston with --use-pixman)");
		return;
	}
	if (c->capabilities & WESTON_CAP_CAPTURE_YFLIP) {
		uint32_t *row = malloc((size_t)stride);

		if (row) {
			for (int y = 0; y < height / 2; y++) {
				uint32_t *a = pixels + (size_t)y * width;
				uint32_t *b = pixels + (size_t)(height - 1 - y) * width;

				memcpy(row, a, (size_t)stride);
				memcpy(a, b, (size_t)stride);
				memcpy(b, row, (size_t)stride);
			}
			free(row);
		}
	}
	shot_complete_pending(h, pixels, width, height, NULL);
}

static void
shot_handle_output_destroy(struct wl_listener *listener, void *data)
{
	struct harness *h = tt_container_of(listener, struct harness,
					 shot_output_destroy_listener);

	(void)data;
	shot_disarm(h);
	shot_complete_pending(h, NULL, 0, 0, "the output went away");
}

static int
shot_handle_timeout(void *data)
{
	struct harness *h = data;

	if (!h->frame_armed)
		return 0;
	weston_log("tt-harness: no repaint within %d ms for a screenshot\n",
		   SCREENSHOT_TIMEOUT_MS);
	shot_disarm(h);
	shot_complete_pending(h, NULL, 0, 0, "timed out waiting for a repaint");
	return 0;
}

static void
shot_arm(struct harness *h)
{
	struct weston_output *output;

	if (h->frame_armed || wl_list_empty(&h->pending_shots))
		return;
	output = first_output(h);
	if (!output) {
		shot_complete_pending(h, NULL, 0, 0, "no output");
		return;
	}
	h->shot_output = output;
	h->frame_listener.notify = shot_handle_frame;
	wl_signal_add(&output->frame_signal, &h->frame_listener);
	h->shot_output_destroy_listener.notify = shot_handle_output_destroy;
	wl_signal_add(&output->destroy_signal, &h->shot_output_destroy_listener);
	wl_event_source_timer_update(h->shot_timer, SCREENSHOT_TIMEOUT_MS);
	h->frame_armed = true;
	/* Forces a full repaint; frame_signal fires right after it. */
	weston_output_damage(output);
}

static void
cmd_screenshot(struct hclient *cl, const char *path)
{
	struct harness *h = cl->h;
	struct shot_job *job;

	if (!path || !*path) {
		client_reply(cl, "error usage: screenshot PATH");
		return;
	}
	if (!first_output(h)) {
		client_reply(cl, "error no output");
		return;
	}
	job = calloc(1, sizeof *job);
	if (!job || !(job->path = strdup(path))) {
		free(job);
		client_reply(cl, "error out of memory");
		return;
	}
	job->client = cl;
	wl_list_insert(h->pending_shots.prev, &job->link);
	cl->busy = true; /* later commands of this client wait for the reply */
	client_update_mask(cl);
	shot_arm(h);
}

/* ------------------------------------------------------------------------ */
/* commit counter                                                           */

static void
tracker_destroy(struct surface_tracker *t)
{
	wl_list_remove(&t->commit_listener.link);
	wl_list_remove(&t->destroy_listener.link);
	wl_list_remove(&t->link);
	free(t);
}

static void
tracker_handle_commit(struct wl_listener *listener, void *data)
{
	struct surface_tracker *t = tt_container_of(listener, struct surface_tracker,
						 commit_listener);
	struct weston_surface *s = data;

	if (s->resource && pixman_region32_not_empty(&s->damage)) {
		t->h->commits++;
		latency_commit(t->h, s);
	}
}

static void
tracker_handle_destroy(struct wl_listener *listener, void *data)
{
	struct surface_tracker *t = tt_container_of(listener, struct surface_tracker,
						 destroy_listener);

	(void)data;
	tracker_destroy(t);
}

static void
handle_create_surface(struct wl_listener *listener, void *data)
{
	struct harness *h = tt_container_of(listener, struct harness,
					 create_surface_listener);
	struct weston_surface *s = data;
	struct surface_tracker *t = calloc(1, sizeof *t);

	if (!t) {
		weston_log("tt-harness: out of memory tracking a surface\n");
		return;
	}
	t->h = h;
	t->surface = s;
	t->commit_listener.notify = tracker_handle_commit;
	wl_signal_add(&s->commit_signal, &t->commit_listener);
	t->destroy_listener.notify = tracker_handle_destroy;
	wl_signal_add(&s->destroy_signal, &t->destroy_listener);
	wl_list_insert(&h->trackers, &t->link);
}

/* ------------------------------------------------------------------------ */
/* latency: injected touch frame -> client commit -> end of output repaint   */

static uint64_t
monotonic_ns(void)
{
	struct timespec ts = now_monotonic();

	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static pid_t
client_pid(struct wl_client *client)
{
	pid_t pid = 0;
	uid_t uid;
	gid_t gid;

	wl_client_get_credentials(client, &pid, &uid, &gid);
	return pid;
}

static void
latency_detach(struct harness *h)
{
	struct latency_state *l = &h->latency;

	if (!l->output)
		return;
	wl_list_remove(&l->frame_listener.link);
	wl_list_remove(&l->output_destroy_listener.link);
	l->output = NULL;
}

/* Called by touch_frame: a touch frame was injected now. */
static void
latency_input_frame(struct harness *h)
{
	struct latency_state *l = &h->latency;

	if (!l->active)
		return;
	if (l->count == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		struct latency_record *n;

		if (cap > 4000000)
			return; /* enough for any run; drop the rest */
		n = realloc(l->records, cap * sizeof *n);
		if (!n)
			return;
		l->records = n;
		l->cap = cap;
	}
	/* The frame's input time is its last touch point event: a client that acts on each event
	 * (weston-simple-touch) may have committed before the frame itself arrived, and that
	 * commit answers this frame. */
	struct latency_record r = { l->last_point_ns ? l->last_point_ns : monotonic_ns(), 0, 0 };
	l->last_point_ns = 0;
	if (l->first_uncommitted == l->count && l->last_commit_ns >= r.input_ns) {
		r.commit_ns = l->last_commit_ns;
		l->first_uncommitted++;
		if (l->first_unrepainted + 1 == l->first_uncommitted &&
		    l->last_repaint_ns >= r.commit_ns) {
			r.repaint_ns = l->last_repaint_ns;
			l->first_unrepainted++;
		}
	}
	l->records[l->count++] = r;
}

/* A commit with damage from a client surface. */
static void
latency_commit(struct harness *h, struct weston_surface *s)
{
	struct latency_state *l = &h->latency;
	uint64_t now;

	if (!l->active)
		return;
	if (l->pid != 0 && client_pid(wl_resource_get_client(s->resource)) != l->pid)
		return;
	l->commits++;
	now = monotonic_ns();
	l->last_commit_ns = now;
	for (size_t i = l->first_uncommitted; i < l->count; i++)
		l->records[i].commit_ns = now;
	l->first_uncommitted = l->count;
}

/* frame_signal: the output repaint that shows every commit made before it has ended. */
static void
latency_handle_frame(struct wl_listener *listener, void *data)
{
	struct latency_state *l = tt_container_of(listener, struct latency_state,
						  frame_listener);
	uint64_t now = monotonic_ns();

	(void)data;
	l->repaints++;
	l->last_repaint_ns = now;
	for (size_t i = l->first_unrepainted; i < l->first_uncommitted; i++)
		l->records[i].repaint_ns = now;
	l->first_unrepainted = l->first_uncommitted;
}

static void
latency_handle_output_destroy(struct wl_listener *listener, void *data)
{
	struct latency_state *l = tt_container_of(listener, struct latency_state,
						  output_destroy_listener);
	struct harness *h = tt_container_of(l, struct harness, latency);

	(void)data;
	latency_detach(h);
}

/* latency start [PID] | latency stop | latency report */
static void
cmd_latency(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct latency_state *l = &h->latency;

	if (argc >= 2 && strcmp(argv[1], "start") == 0) {
		struct weston_output *output = first_output(h);
		long pid = 0;

		if (argc > 3 || (argc == 3 && !parse_long(argv[2], 0, INT32_MAX, &pid))) {
			client_reply(cl, "error usage: latency start [PID]");
			return;
		}
		if (!output) {
			client_reply(cl, "error no output");
			return;
		}
		latency_detach(h);
		l->active = true;
		l->pid = (pid_t)pid;
		l->count = l->first_uncommitted = l->first_unrepainted = 0;
		l->last_point_ns = l->last_commit_ns = l->last_repaint_ns = 0;
		l->commits = l->repaints = 0;
		l->output = output;
		l->frame_listener.notify = latency_handle_frame;
		wl_signal_add(&output->frame_signal, &l->frame_listener);
		l->output_destroy_listener.notify = latency_handle_output_destroy;
		wl_signal_add(&output->destroy_signal, &l->output_destroy_listener);
		client_reply(cl, "ok");
	} else if (argc == 2 && strcmp(argv[1], "stop") == 0) {
		l->active = false;
		latency_detach(h);
		client_reply(cl, "ok");
	} else if (argc == 2 && strcmp(argv[1], "report") == 0) {
		struct strbuf sb = { 0 };

		sb_printf(&sb, "%llu %llu %zu", (unsigned long long)l->commits,
			  (unsigned long long)l->repaints, l->count);
		for (size_t i = 0; i < l->count; i++)
			sb_printf(&sb, " %llu:%llu:%llu",
				  (unsigned long long)l->records[i].input_ns,
				  (unsigned long long)l->records[i].commit_ns,
				  (unsigned long long)l->records[i].repaint_ns);
		if (sb.failed)
			client_reply(cl, "error out of memory");
		else
			client_reply(cl, "ok %s", sb.data);
		sb_free(&sb);
	} else {
		client_reply(cl, "error usage: latency start [PID] | latency stop | latency report");
	}
}

/* backlog PID: bytes of Wayland events written to that client and not yet read by it. */
static void
cmd_backlog(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct wl_list *list = wl_display_get_client_list(h->compositor->wl_display);
	struct wl_client *client;
	long pid;

	if (argc != 2 || !parse_long(argv[1], 1, INT32_MAX, &pid)) {
		client_reply(cl, "error usage: backlog PID");
		return;
	}
	wl_client_for_each(client, list) {
		int queued = 0;

		if (client_pid(client) != (pid_t)pid)
			continue;
		wl_client_flush(client);
		if (ioctl(wl_client_get_fd(client), SIOCOUTQ, &queued) < 0) {
			client_reply(cl, "error SIOCOUTQ: %s", strerror(errno));
			return;
		}
		client_reply(cl, "ok %d", queued);
		return;
	}
	client_reply(cl, "error no Wayland client with pid %ld", pid);
}

/* ------------------------------------------------------------------------ */
/* command dispatch                                                         */

static void
handle_line(struct hclient *cl, char *line)
{
	struct harness *h = cl->h;
	char *argv[8];
	int argc = 0;
	char *p, *rest = NULL;
	size_t len = strlen(line);

	if (len > 0 && line[len - 1] == '\r')
		line[--len] = '\0';

	/* Commands that take the rest of the line (paths, app ids). */
	if (strncmp(line, "screenshot ", 11) == 0) {
		cmd_screenshot(cl, line + 11);
		return;
	}
	if (strncmp(line, "close ", 6) == 0) {
		cmd_close(cl, line + 6);
		return;
	}
	if (strncmp(line, "resize ", 7) == 0) {
		cmd_resize(cl, line + 7);
		return;
	}
	if (strncmp(line, "touch batch ", 12) == 0) {
		cmd_touch_batch(cl, line + 12);
		return;
	}
	if (strncmp(line, "touch raw ", 10) == 0) {
		cmd_touch_raw(cl, line + 10);
		return;
	}

	for (p = strtok_r(line, " \t", &rest); p; p = strtok_r(NULL, " \t", &rest)) {
		if (argc == (int)(sizeof argv / sizeof argv[0])) {
			client_reply(cl, "error too many arguments");
			return;
		}
		argv[argc++] = p;
	}
	if (argc == 0) {
		client_reply(cl, "error empty command");
		return;
	}

	if (strcmp(argv[0], "ping") == 0) {
		client_reply(cl, argc == 1 ? "ok" : "error usage: ping");
	} else if (strcmp(argv[0], "output") == 0) {
		struct weston_output *o = first_output(h);

		if (argc != 1)
			client_reply(cl, "error usage: output");
		else if (!o)
			client_reply(cl, "error no output");
		else
			client_reply(cl, "ok %d %d %d %d", o->x, o->y,
				     o->width, o->height);
	} else if (strcmp(argv[0], "touch") == 0) {
		cmd_touch(cl, argv, argc);
	} else if (strcmp(argv[0], "pointer") == 0) {
		cmd_pointer(cl, argv, argc);
	} else if (strcmp(argv[0], "key") == 0) {
		cmd_key(cl, argv, argc);
	} else if (strcmp(argv[0], "windows") == 0) {
		cmd_windows(cl, argv, argc);
	} else if (strcmp(argv[0], "close") == 0 || strcmp(argv[0], "screenshot") == 0) {
		client_reply(cl, "error usage: %s", strcmp(argv[0], "close") == 0 ?
			     "close APP_ID" : "screenshot PATH");
	} else if (strcmp(argv[0], "latency") == 0) {
		cmd_latency(cl, argv, argc);
	} else if (strcmp(argv[0], "backlog") == 0) {
		cmd_backlog(cl, argv, argc);
	} else if (strcmp(argv[0], "commits") == 0) {
		if (argc != 1)
			client_reply(cl, "error usage: commits");
		else
			client_reply(cl, "ok %llu", (unsigned long long)h->commits);
	} else if (strcmp(argv[0], "quit") == 0) {
		if (argc != 1) {
			client_reply(cl, "error usage: quit");
			return;
		}
		client_reply(cl, "ok");
		weston_log("tt-harness: quit requested\n");
		weston_compositor_exit(h->compositor);
	} else {
		client_reply(cl, "error unknown command '%s' (ping, output, touch, pointer, key, windows, close, resize, screenshot, commits, latency, backlog, quit)",
			     argv[0]);
	}
}

/* Handles complete lines in the input buffer while no reply is pending. */
static void
client_process_lines(struct hclient *cl)
{
	while (!cl->busy && !cl->dead) {
		char *nl = memchr(cl->in, '\n', cl->in_len);
		size_t consumed;

		if (!nl)
			break;
		*nl = '\0';
		consumed = (size_t)(nl - cl->in) + 1;
		if (cl->discarding) {
			cl->discarding = false;
		} else if (memchr(cl->in, '\0', (size_t)(nl - cl->in))) {
			client_reply(cl, "error NUL byte in command");
		} else {
			handle_line(cl, cl->in);
		}
		memmove(cl->in, cl->in + consumed, cl->in_len - consumed);
		cl->in_len -= consumed;
	}
}

static int
client_handle_data(int fd, uint32_t mask, void *data)
{
	struct hclient *cl = data;
	bool eof = false;

	if (mask & WL_EVENT_WRITABLE)
		client_flush(cl);

	if (mask & WL_EVENT_READABLE) {
		for (;;) {
			ssize_t n;

			if (cl->busy)
				break; /* read on once the pending reply is sent */
			if (cl->in_len == sizeof cl->in) {
				/* Over-long line: answer once, drop until '\n'. */
				if (!cl->discarding)
					client_reply(cl, "error line too long (max %d bytes)",
						     MAX_LINE - 1);
				cl->discarding = true;
				cl->in_len = 0;
			}
			n = recv(fd, cl->in + cl->in_len, sizeof cl->in - cl->in_len,
				 MSG_DONTWAIT);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno != EAGAIN && errno != EWOULDBLOCK)
					eof = true;
				break;
			}
			if (n == 0) {
				eof = true;
				break;
			}
			cl->in_len += (size_t)n;
			client_process_lines(cl);
		}
	}
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR))
		eof = true;

	client_process_lines(cl);

	/* A client that hung up is dropped at once; a screenshot it was
	 * waiting for is still written (see client_destroy). */
	if (cl->dead || eof)
		client_destroy(cl);
	else
		client_update_mask(cl);
	return 0;
}

static int
handle_accept(int fd, uint32_t mask, void *data)
{
	struct harness *h = data;
	struct hclient *cl;
	int cfd;

	(void)mask;
	cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (cfd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			weston_log("tt-harness: accept failed: %s\n", strerror(errno));
		return 0;
	}
	cl = calloc(1, sizeof *cl);
	if (!cl) {
		close(cfd);
		return 0;
	}
	cl->h = h;
	cl->fd = cfd;
	cl->source = wl_event_loop_add_fd(h->loop, cfd, WL_EVENT_READABLE,
					  client_handle_data, cl);
	if (!cl->source) {
		close(cfd);
		free(cl);
		return 0;
	}
	wl_list_insert(&h->clients, &cl->link);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* setup / teardown                                                         */

static int
harness_listen(struct harness *h)
{
	const char *env = getenv("TT_HARNESS_SOCKET");
	const char *rt = getenv("XDG_RUNTIME_DIR");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	struct stat st;

	if (env && *env)
		h->socket_path = strdup(env);
	else if (rt && *rt && asprintf(&h->socket_path, "%s/tt-harness.sock", rt) < 0)
		h->socket_path = NULL;
	if (!h->socket_path) {
		weston_log("tt-harness: set TT_HARNESS_SOCKET or XDG_RUNTIME_DIR\n");
		return -1;
	}
	if (strlen(h->socket_path) >= sizeof addr.sun_path) {
		weston_log("tt-harness: socket path too long: %s\n", h->socket_path);
		return -1;
	}
	strcpy(addr.sun_path, h->socket_path);

	if (lstat(h->socket_path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			weston_log("tt-harness: %s exists and is not a socket\n",
				   h->socket_path);
			return -1;
		}
		unlink(h->socket_path); /* stale socket of an earlier run */
	}

	h->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (h->listen_fd < 0 ||
	    bind(h->listen_fd, (struct sockaddr *)&addr, sizeof addr) < 0 ||
	    listen(h->listen_fd, 16) < 0) {
		weston_log("tt-harness: cannot listen on %s: %s\n",
			   h->socket_path, strerror(errno));
		return -1;
	}
	h->listen_source = wl_event_loop_add_fd(h->loop, h->listen_fd,
						WL_EVENT_READABLE, handle_accept, h);
	if (!h->listen_source) {
		weston_log("tt-harness: cannot watch the socket\n");
		return -1;
	}
	weston_log("tt-harness: control socket at %s\n", h->socket_path);
	return 0;
}

static void
harness_destroy(struct harness *h)
{
	struct hclient *cl, *ctmp;
	struct surface_tracker *t, *ttmp;
	struct shot_job *job, *jtmp;

	shot_disarm(h);
	wl_list_for_each_safe(job, jtmp, &h->pending_shots, link) {
		wl_list_remove(&job->link);
		free(job->path);
		free(job);
	}
	if (h->shot_timer)
		wl_event_source_remove(h->shot_timer);

	wl_list_for_each_safe(cl, ctmp, &h->clients, link) {
		client_flush(cl);
		client_destroy(cl);
	}
	if (h->listen_source)
		wl_event_source_remove(h->listen_source);
	if (h->listen_fd >= 0) {
		close(h->listen_fd);
		if (h->socket_path)
			unlink(h->socket_path);
	}
	free(h->socket_path);

	latency_detach(h);
	free(h->latency.records);

	wl_list_for_each_safe(t, ttmp, &h->trackers, link)
		tracker_destroy(t);
	wl_list_remove(&h->create_surface_listener.link);
	wl_list_remove(&h->destroy_listener.link);

	if (h->touch_device)
		weston_touch_device_destroy(h->touch_device);
	if (h->seat_initialized)
		weston_seat_release(&h->seat);
	free(h);
}

static void
handle_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct harness *h = tt_container_of(listener, struct harness,
					 destroy_listener);

	(void)data;
	harness_destroy(h);
}

WL_EXPORT int
wet_module_init(struct weston_compositor *compositor, int *argc, char *argv[])
{
	struct harness *h;

	(void)argc;
	(void)argv;

	h = calloc(1, sizeof *h);
	if (!h)
		return -1;
	h->compositor = compositor;
	h->loop = wl_display_get_event_loop(compositor->wl_display);
	h->listen_fd = -1;
	wl_list_init(&h->clients);
	wl_list_init(&h->trackers);
	wl_list_init(&h->pending_shots);
	wl_list_init(&h->batches);

	h->destroy_listener.notify = handle_compositor_destroy;
	wl_signal_add(&compositor->destroy_signal, &h->destroy_listener);
	h->create_surface_listener.notify = handle_create_surface;
	wl_signal_add(&compositor->create_surface_signal,
		      &h->create_surface_listener);

	h->shot_timer = wl_event_loop_add_timer(h->loop, shot_handle_timeout, h);
	if (!h->shot_timer || harness_seat_init(h) < 0 || harness_listen(h) < 0) {
		harness_destroy(h);
		return -1;
	}
	weston_log("tt-harness: seat '%s' with touch, pointer and keyboard\n",
		   SEAT_NAME);
	return 0;
}
