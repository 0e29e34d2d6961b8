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
 * so they are declared in harness.h. Signatures checked against the Weston 10
 * source:
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
 *   - Input is routed by compositor->view_list, rebuilt only at a repaint, so
 *     a view mapped after the last repaint takes no input yet (a popup tapped
 *     then passes the tap to the window beneath); "windows" lists a view only
 *     once it is in that list.
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

#include "harness.h"

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
						WL_EVENT_READABLE, harness_handle_accept, h);
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

	harness_shot_disarm(h);
	wl_list_for_each_safe(job, jtmp, &h->pending_shots, link) {
		wl_list_remove(&job->link);
		free(job->path);
		free(job);
	}
	if (h->shot_timer)
		wl_event_source_remove(h->shot_timer);

	wl_list_for_each_safe(cl, ctmp, &h->clients, link) {
		harness_client_flush(cl);
		harness_client_destroy(cl);
	}
	if (h->listen_source)
		wl_event_source_remove(h->listen_source);
	if (h->listen_fd >= 0) {
		close(h->listen_fd);
		if (h->socket_path)
			unlink(h->socket_path);
	}
	free(h->socket_path);

	harness_latency_detach(h);
	harness_capture_free(h);
	free(h->latency.records);

	wl_list_for_each_safe(t, ttmp, &h->trackers, link)
		harness_tracker_destroy(t);
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
	h->create_surface_listener.notify = harness_handle_create_surface;
	wl_signal_add(&compositor->create_surface_signal,
		      &h->create_surface_listener);

	h->shot_timer = wl_event_loop_add_timer(h->loop, harness_shot_handle_timeout, h);
	if (!h->shot_timer || harness_seat_init(h) < 0 || harness_listen(h) < 0) {
		harness_destroy(h);
		return -1;
	}
	weston_log("tt-harness: seat '%s' with touch, pointer and keyboard\n",
		   SEAT_NAME);
	return 0;
}
