/* The commit counter and the latency and backlog commands. */

#define _GNU_SOURCE

#include "harness.h"

static void latency_commit(struct harness *h, struct weston_surface *s);

/* ------------------------------------------------------------------------ */
/* commit counter                                                           */

void
harness_tracker_destroy(struct surface_tracker *t)
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
	harness_tracker_destroy(t);
}

void
harness_handle_create_surface(struct wl_listener *listener, void *data)
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

static pid_t
client_pid(struct wl_client *client)
{
	pid_t pid = 0;
	uid_t uid;
	gid_t gid;

	wl_client_get_credentials(client, &pid, &uid, &gid);
	return pid;
}

void
harness_latency_detach(struct harness *h)
{
	struct latency_state *l = &h->latency;

	if (!l->output)
		return;
	wl_list_remove(&l->frame_listener.link);
	wl_list_remove(&l->output_destroy_listener.link);
	l->output = NULL;
}

/* Called by harness_touch_frame: a touch frame was injected now. */
void
harness_latency_input_frame(struct harness *h)
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
	struct latency_record r = { l->last_point_ns ? l->last_point_ns : harness_monotonic_ns(), 0, 0 };
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
	now = harness_monotonic_ns();
	l->last_commit_ns = now;
	for (size_t i = l->first_uncommitted; i < l->count; i++)
		l->records[i].commit_ns = now;
	l->first_uncommitted = l->count;
}

/* frame_signal: the output repaint that shows every commit made before it has ended. Weston 10
 * passes the repaint's damage (global coordinates): a repaint of the whole output costs the
 * compositor far more than the client's damage, and holds every client's commit meanwhile. */
static void
latency_handle_frame(struct wl_listener *listener, void *data)
{
	struct latency_state *l = tt_container_of(listener, struct latency_state,
						  frame_listener);
	uint64_t now = harness_monotonic_ns();
	pixman_region32_t *damage = data;
	pixman_region32_t whole;

	if (damage && l->output) {
		pixman_region32_init(&whole);
		pixman_region32_subtract(&whole, &l->output->region, damage);
		if (!pixman_region32_not_empty(&whole))
			l->whole_repaints++;
		pixman_region32_fini(&whole);
	}
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
	harness_latency_detach(h);
}

/* latency start [PID] | latency stop | latency report */
void
harness_cmd_latency(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct latency_state *l = &h->latency;

	if (argc >= 2 && strcmp(argv[1], "start") == 0) {
		struct weston_output *output = harness_first_output(h);
		long pid = 0;

		if (argc > 3 || (argc == 3 && !harness_parse_long(argv[2], 0, INT32_MAX, &pid))) {
			harness_client_reply(cl, "error usage: latency start [PID]");
			return;
		}
		if (!output) {
			harness_client_reply(cl, "error no output");
			return;
		}
		harness_latency_detach(h);
		l->active = true;
		l->pid = (pid_t)pid;
		l->count = l->first_uncommitted = l->first_unrepainted = 0;
		l->last_point_ns = l->last_commit_ns = l->last_repaint_ns = 0;
		l->commits = l->repaints = l->whole_repaints = 0;
		l->output = output;
		l->frame_listener.notify = latency_handle_frame;
		wl_signal_add(&output->frame_signal, &l->frame_listener);
		l->output_destroy_listener.notify = latency_handle_output_destroy;
		wl_signal_add(&output->destroy_signal, &l->output_destroy_listener);
		harness_client_reply(cl, "ok");
	} else if (argc == 2 && strcmp(argv[1], "stop") == 0) {
		l->active = false;
		harness_latency_detach(h);
		harness_client_reply(cl, "ok");
	} else if (argc == 2 && strcmp(argv[1], "report") == 0) {
		struct strbuf sb = { 0 };

		harness_sb_printf(&sb, "%llu %llu %llu %zu", (unsigned long long)l->commits,
			  (unsigned long long)l->repaints,
			  (unsigned long long)l->whole_repaints, l->count);
		for (size_t i = 0; i < l->count; i++)
			harness_sb_printf(&sb, " %llu:%llu:%llu",
				  (unsigned long long)l->records[i].input_ns,
				  (unsigned long long)l->records[i].commit_ns,
				  (unsigned long long)l->records[i].repaint_ns);
		if (sb.failed)
			harness_client_reply(cl, "error out of memory");
		else
			harness_client_reply(cl, "ok %s", sb.data);
		harness_sb_free(&sb);
	} else {
		harness_client_reply(cl, "error usage: latency start [PID] | latency stop | latency report");
	}
}

/* backlog PID: bytes of Wayland events written to that client and not yet read by it. */
void
harness_cmd_backlog(struct hclient *cl, char **argv, int argc)
{
	struct harness *h = cl->h;
	struct wl_list *list = wl_display_get_client_list(h->compositor->wl_display);
	struct wl_client *client;
	long pid;

	if (argc != 2 || !harness_parse_long(argv[1], 1, INT32_MAX, &pid)) {
		harness_client_reply(cl, "error usage: backlog PID");
		return;
	}
	wl_client_for_each(client, list) {
		int queued = 0;

		if (client_pid(client) != (pid_t)pid)
			continue;
		wl_client_flush(client);
		if (ioctl(wl_client_get_fd(client), SIOCOUTQ, &queued) < 0) {
			harness_client_reply(cl, "error SIOCOUTQ: %s", strerror(errno));
			return;
		}
		harness_client_reply(cl, "ok %d", queued);
		return;
	}
	harness_client_reply(cl, "error no Wayland client with pid %ld", pid);
}
