/* The plugin's private header: libweston declarations, shared state, cross-file functions. */
#ifndef TT_WESTON_HARNESS_H
#define TT_WESTON_HARNESS_H

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
void notify_axis_source(struct weston_seat *seat, uint32_t source);
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
	uint64_t whole_repaints; /* of them, repaints whose damage was the whole output */
	struct weston_output *output;
	struct wl_listener frame_listener;
	struct wl_listener output_destroy_listener;
};

/* "capture start": per repaint, a mask of the pixels of one colour in a rectangle. Kept as
 * frames of 16 bytes of times (repaint, latest presentation; CLOCK_MONOTONIC ns) and the mask
 * (one bit per pixel, row by row, least significant bit first), or, given a background colour,
 * the colour's coverage (one byte per pixel, 0-255: how much of the pixel it paints). */
struct capture_state {
	bool active;
	bool coverage;
	int x, y, width, height;
	uint32_t color; /* 0xRRGGBB */
	uint32_t background; /* 0xRRGGBB, with coverage */
	uint32_t *pixels;
	uint8_t *data;
	size_t size, cap, frames;
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
	struct capture_state capture;
};

/* ------------------------------------------------------------------------ */
/* functions shared between the files, by the file defining them              */

/* util.c */
void harness_sb_append(struct strbuf *sb, const char *s, size_t n);
void harness_sb_puts(struct strbuf *sb, const char *s);
void __attribute__((format(printf, 2, 3))) harness_sb_printf(struct strbuf *sb, const char *fmt, ...);
void harness_sb_free(struct strbuf *sb);
void harness_sb_json_string(struct strbuf *sb, const char *s);
struct timespec harness_now_monotonic(void);
uint64_t harness_monotonic_ns(void);
bool harness_parse_double(const char *s, double *out);
bool harness_parse_long(const char *s, long min, long max, long *out);
struct weston_output *harness_first_output(struct harness *h);

/* client.c */
void harness_client_update_mask(struct hclient *cl);
void harness_client_flush(struct hclient *cl);
void __attribute__((format(printf, 2, 3))) harness_client_reply(struct hclient *cl, const char *fmt, ...);
void harness_client_destroy(struct hclient *cl);
void harness_client_process_lines(struct hclient *cl);
int harness_handle_accept(int fd, uint32_t mask, void *data);

/* input.c */
int harness_seat_init(struct harness *h);
void harness_touch_frame(struct harness *h);
void harness_cmd_touch(struct hclient *cl, char **argv, int argc);
void harness_cmd_touch_batch(struct hclient *cl, char *args);
void harness_cmd_touch_raw(struct hclient *cl, char *args);
void harness_cmd_pointer(struct hclient *cl, char **argv, int argc);
void harness_cmd_key(struct hclient *cl, char **argv, int argc);

/* windows.c */
void harness_cmd_windows(struct hclient *cl, char **argv, int argc);
void harness_cmd_close(struct hclient *cl, const char *app_id);
void harness_cmd_resize(struct hclient *cl, const char *args);

/* screenshot.c */
void harness_shot_disarm(struct harness *h);
int harness_shot_handle_timeout(void *data);
void harness_cmd_screenshot(struct hclient *cl, const char *path);

/* latency.c */
void harness_tracker_destroy(struct surface_tracker *t);
void harness_handle_create_surface(struct wl_listener *listener, void *data);
void harness_latency_detach(struct harness *h);
void harness_latency_input_frame(struct harness *h);
void harness_cmd_latency(struct hclient *cl, char **argv, int argc);
void harness_cmd_backlog(struct hclient *cl, char **argv, int argc);

/* capture.c */
void harness_capture_detach(struct harness *h);
void harness_capture_free(struct harness *h);
void harness_cmd_capture(struct hclient *cl, char **argv, int argc);

#endif /* TT_WESTON_HARNESS_H */
