/* The harness seat and the input commands: touch, touch batch, touch raw, pointer, key. */

#define _GNU_SOURCE

#include "harness.h"

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

int
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
	h->latency.last_point_ns = harness_monotonic_ns();
	return 0;
}

void
harness_touch_frame(struct harness *h)
{
	notify_touch_frame(h->touch_device);
	harness_latency_input_frame(h);
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

void
harness_cmd_touch(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct timespec t = harness_now_monotonic();
	char err[128];
	long id;
	double x, y;
	int type;

	if (argc < 2) {
		harness_client_reply(cl, "error usage: touch down|motion ID X Y, touch up ID, touch frame, touch cancel");
		return;
	}
	if (strcmp(argv[1], "frame") == 0) {
		if (argc != 2) {
			harness_client_reply(cl, "error usage: touch frame");
			return;
		}
		harness_touch_frame(h);
		harness_client_reply(cl, "ok");
		return;
	}
	if (strcmp(argv[1], "cancel") == 0) {
		if (argc != 2) {
			harness_client_reply(cl, "error usage: touch cancel");
			return;
		}
		int sent = touch_cancel_all(h);
		weston_log("tt-harness: touch cancel sent to %d wl_touch resource(s)\n",
			   sent);
		harness_client_reply(cl, "ok");
		return;
	}

	if (strcmp(argv[1], "down") == 0) {
		type = WL_TOUCH_DOWN;
	} else if (strcmp(argv[1], "motion") == 0) {
		type = WL_TOUCH_MOTION;
	} else if (strcmp(argv[1], "up") == 0) {
		type = WL_TOUCH_UP;
	} else {
		harness_client_reply(cl, "error unknown touch action '%s' (down, motion, up, frame, cancel)",
			     argv[1]);
		return;
	}

	if (type == WL_TOUCH_UP ? argc != 3 : argc != 5) {
		harness_client_reply(cl, type == WL_TOUCH_UP ?
			     "error usage: touch up ID" :
			     "error usage: touch down|motion ID X Y");
		return;
	}
	if (!harness_parse_long(argv[2], 0, INT32_MAX, &id)) {
		harness_client_reply(cl, "error bad touch id '%s' (integer 0..2147483647)",
			     argv[2]);
		return;
	}
	x = y = 0.0;
	if (type != WL_TOUCH_UP &&
	    (!harness_parse_double(argv[3], &x) || !harness_parse_double(argv[4], &y))) {
		harness_client_reply(cl, "error bad coordinates '%s' '%s'", argv[3], argv[4]);
		return;
	}

	if (touch_apply(h, type, id, x, y, &t, err, sizeof err) < 0)
		harness_client_reply(cl, "error %s", err);
	else
		harness_client_reply(cl, "ok");
}

/* One raw event: to Weston as it is, the plugin's list of ids that are down kept as well as it
 * can (see touch raw below). */
static void
touch_apply_raw(struct harness *h, int type, long id, double x, double y, const struct timespec *t)
{
	int idx = touch_id_index(h, (int)id);

	if (type == WL_TOUCH_DOWN && idx < 0 && h->n_touch_ids < MAX_TOUCH_POINTS)
		h->touch_ids[h->n_touch_ids++] = (int)id;
	else if (type == WL_TOUCH_UP && idx >= 0)
		h->touch_ids[idx] = h->touch_ids[--h->n_touch_ids];
	notify_touch_normalized(h->touch_device, t, (int)id, x, y, NULL, type);
	h->latency.last_point_ns = harness_monotonic_ns();
}

/* The events of a touch batch or touch raw command ("d ID X Y", "m ID X Y", "u ID", "f", and for
 * raw "c"), applied in order, all stamped with the same time; the first bad token stops the
 * command (what came before it stays applied). */
static void
touch_events(struct hclient *cl, char *args, bool raw)
{
	struct harness *h = cl->h;
	struct timespec t = harness_now_monotonic();
	const char *what = raw ? "touch raw" : "touch batch";
	char *rest = NULL, *tok;
	char err[160];
	int events = 0;

	for (tok = strtok_r(args, " \t", &rest); tok; tok = strtok_r(NULL, " \t", &rest)) {
		int type;
		long id;
		double x = 0.0, y = 0.0;
		char *a;

		if (strcmp(tok, "f") == 0) {
			harness_touch_frame(h);
			events++;
			continue;
		}
		if (raw && strcmp(tok, "c") == 0) {
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
			harness_client_reply(cl, "error %s: unknown event '%s' after %d events (d ID X Y, m ID X Y, u ID, f%s)",
				     what, tok, events, raw ? ", c" : "");
			return;
		}
		a = strtok_r(NULL, " \t", &rest);
		if (!harness_parse_long(a, 0, INT32_MAX, &id)) {
			harness_client_reply(cl, "error %s: bad touch id after %d events", what, events);
			return;
		}
		if (type != WL_TOUCH_UP) {
			char *xs = strtok_r(NULL, " \t", &rest);
			char *ys = strtok_r(NULL, " \t", &rest);

			if (!harness_parse_double(xs, &x) || !harness_parse_double(ys, &y)) {
				harness_client_reply(cl, "error %s: bad coordinates after %d events", what, events);
				return;
			}
		}
		if (raw) {
			touch_apply_raw(h, type, id, x, y, &t);
		} else if (touch_apply(h, type, id, x, y, &t, err, sizeof err) < 0) {
			harness_client_reply(cl, "error %s: %s (after %d events)", what, err, events);
			return;
		}
		events++;
	}
	harness_client_reply(cl, "ok %d", events);
}

/* touch batch: many touch events in one command, all stamped with the same time, each checked
 * against the points that are down. */
void
harness_cmd_touch_batch(struct hclient *cl, char *args)
{
	touch_events(cl, args, false);
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
void
harness_cmd_touch_raw(struct hclient *cl, char *args)
{
	touch_events(cl, args, true);
}

void
harness_cmd_pointer(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct timespec t = harness_now_monotonic();

	if (argc >= 2 && strcmp(argv[1], "motion") == 0) {
		double x, y;

		if (argc != 4 || !harness_parse_double(argv[2], &x) ||
		    !harness_parse_double(argv[3], &y)) {
			harness_client_reply(cl, "error usage: pointer motion X Y");
			return;
		}
		notify_motion_absolute(&h->seat, &t, x, y);
		notify_pointer_frame(&h->seat);
		harness_client_reply(cl, "ok");
		return;
	}
	if (argc >= 2 && strcmp(argv[1], "button") == 0) {
		long code;
		bool down;
		int idx;

		if (argc != 4 || !harness_parse_long(argv[2], 0, MAX_EVDEV_CODE, &code) ||
		    (strcmp(argv[3], "down") != 0 && strcmp(argv[3], "up") != 0)) {
			harness_client_reply(cl, "error usage: pointer button CODE down|up (evdev code, 272 = BTN_LEFT)");
			return;
		}
		down = strcmp(argv[3], "down") == 0;
		idx = button_index(h, (int32_t)code);
		if (down && idx >= 0) {
			harness_client_reply(cl, "error button %ld is already down", code);
			return;
		}
		if (!down && idx < 0) {
			harness_client_reply(cl, "error button %ld is not down", code);
			return;
		}
		if (down && h->n_buttons >= MAX_BUTTONS) {
			harness_client_reply(cl, "error too many buttons down");
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
		harness_client_reply(cl, "ok");
		return;
	}
	if (argc >= 2 && strcmp(argv[1], "axis") == 0) {
		/* pointer axis AXIS VALUE [DISCRETE] [wheel|finger]: a value of 0
		 * is the axis' stop (Weston sends axis_stop for it). */
		struct weston_pointer_axis_event ev = { 0 };
		double value;
		long discrete = 0;
		int source = -1;
		int n = argc;

		if (n >= 5 && strcmp(argv[n - 1], "wheel") == 0) {
			source = WL_POINTER_AXIS_SOURCE_WHEEL;
			n--;
		} else if (n >= 5 && strcmp(argv[n - 1], "finger") == 0) {
			source = WL_POINTER_AXIS_SOURCE_FINGER;
			n--;
		}
		if ((n != 4 && n != 5) || !harness_parse_double(argv[3], &value) ||
		    (n == 5 && !harness_parse_long(argv[4], -1000, 1000, &discrete)) ||
		    (strcmp(argv[2], "vertical") != 0 &&
		     strcmp(argv[2], "horizontal") != 0)) {
			harness_client_reply(cl, "error usage: pointer axis vertical|horizontal VALUE [DISCRETE] [wheel|finger]");
			return;
		}
		ev.axis = strcmp(argv[2], "vertical") == 0 ?
			  WL_POINTER_AXIS_VERTICAL_SCROLL :
			  WL_POINTER_AXIS_HORIZONTAL_SCROLL;
		ev.value = value;
		ev.has_discrete = n == 5;
		ev.discrete = (int32_t)discrete;
		if (source >= 0)
			notify_axis_source(&h->seat, (uint32_t)source);
		notify_axis(&h->seat, &t, &ev);
		notify_pointer_frame(&h->seat);
		harness_client_reply(cl, "ok");
		return;
	}
	harness_client_reply(cl, "error usage: pointer motion X Y | pointer button CODE down|up | pointer axis vertical|horizontal VALUE [DISCRETE] [wheel|finger]");
}

void
harness_cmd_key(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct weston_keyboard *kb = weston_seat_get_keyboard(&h->seat);
	struct timespec t = harness_now_monotonic();
	long code;
	bool down, pressed = false;
	uint32_t *k;

	if (argc != 3 || !harness_parse_long(argv[1], 0, MAX_EVDEV_CODE, &code) ||
	    (strcmp(argv[2], "down") != 0 && strcmp(argv[2], "up") != 0)) {
		harness_client_reply(cl, "error usage: key CODE down|up (evdev keycode, e.g. 1 = KEY_ESC)");
		return;
	}
	if (!kb) {
		harness_client_reply(cl, "error the seat has no keyboard");
		return;
	}
	down = strcmp(argv[2], "down") == 0;
	wl_array_for_each(k, &kb->keys)
		if (*k == (uint32_t)code)
			pressed = true;
	if (down && pressed) {
		harness_client_reply(cl, "error key %ld is already down", code);
		return;
	}
	if (!down && !pressed) {
		harness_client_reply(cl, "error key %ld is not down", code);
		return;
	}
	notify_key(&h->seat, &t, (uint32_t)code,
		   down ? WL_KEYBOARD_KEY_STATE_PRESSED :
			  WL_KEYBOARD_KEY_STATE_RELEASED,
		   STATE_UPDATE_AUTOMATIC);
	harness_client_reply(cl, "ok");
}
