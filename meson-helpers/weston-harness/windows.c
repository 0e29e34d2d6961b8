/* Window commands: windows, close, resize. */

#define _GNU_SOURCE

#include "harness.h"

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
	/* Weston 10 picks the view under a touch or the pointer from
	 * compositor->view_list, which it rebuilds only when it repaints: a view
	 * mapped since then is neither shown nor reachable by input yet, and a
	 * tap aimed at it lands on whatever is under it. Report it once it is. */
	if (wl_list_empty(&view->link))
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
		harness_sb_puts(ctx->sb, ",");
	ctx->first = false;
	harness_sb_puts(ctx->sb, "{\"app_id\":");
	harness_sb_json_string(ctx->sb, app_id);
	harness_sb_puts(ctx->sb, ",\"title\":");
	harness_sb_json_string(ctx->sb, title);
	harness_sb_printf(ctx->sb, ",\"x\":%ld,\"y\":%ld,\"width\":%d,\"height\":%d,"
		  "\"popup\":%s,\"pid\":%d}",
		  lroundf(fx), lroundf(fy), s->width, s->height,
		  popup ? "true" : "false", (int)pid);
	return true;
}

void
harness_cmd_windows(struct hclient *cl, char **argv, int argc)
{
	struct strbuf sb = { 0 };
	struct windows_ctx ctx = { &sb, true };

	(void)argv;
	if (argc != 1) {
		harness_client_reply(cl, "error usage: windows");
		return;
	}
	harness_sb_puts(&sb, "[");
	for_each_window_view(cl->h, append_window_json, &ctx);
	harness_sb_puts(&sb, "]");
	if (sb.failed)
		harness_client_reply(cl, "error out of memory");
	else
		harness_client_reply(cl, "ok %s", sb.data);
	harness_sb_free(&sb);
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

void
harness_cmd_close(struct hclient *cl, const char *app_id)
{
	struct close_ctx ctx = { app_id, NULL };

	if (!app_id || !*app_id) {
		harness_client_reply(cl, "error usage: close APP_ID");
		return;
	}
	for_each_window_view(cl->h, find_toplevel, &ctx);
	if (!ctx.found) {
		harness_client_reply(cl, "error no window with app_id '%s'", app_id);
		return;
	}
	weston_desktop_surface_close(ctx.found);
	harness_client_reply(cl, "ok");
}

/* resize W H APP_ID: a configure with that size, as a user's resize would send. */
void
harness_cmd_resize(struct hclient *cl, const char *args)
{
	struct close_ctx ctx = { NULL, NULL };
	int width, height, consumed = 0;

	if (sscanf(args, "%d %d %n", &width, &height, &consumed) != 2 || consumed == 0 ||
	    width <= 0 || height <= 0 || width > 16384 || height > 16384 || !args[consumed]) {
		harness_client_reply(cl, "error usage: resize WIDTH HEIGHT APP_ID");
		return;
	}
	ctx.app_id = args + consumed;
	for_each_window_view(cl->h, find_toplevel, &ctx);
	if (!ctx.found) {
		harness_client_reply(cl, "error no window with app_id '%s'", ctx.app_id);
		return;
	}
	weston_desktop_surface_set_size(ctx.found, width, height);
	harness_client_reply(cl, "ok");
}
