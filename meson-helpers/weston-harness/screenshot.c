/* The screenshot command: reading an output back after its next repaint and writing PNGs. */

#define _GNU_SOURCE

#include "harness.h"

/* ------------------------------------------------------------------------ */
/* commands: screenshot                                                     */

static void shot_arm(struct harness *h);

void
harness_shot_disarm(struct harness *h)
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
	harness_client_process_lines(cl);
	harness_client_update_mask(cl);
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
				harness_client_reply(cl, "error %s", b->error);
		} else if (write_png(job->path, b->pixels, b->width, b->height,
				     err, sizeof err) < 0) {
			weston_log("tt-harness: screenshot failed: %s\n", err);
			if (cl)
				harness_client_reply(cl, "error %s", err);
		} else if (cl) {
			harness_client_reply(cl, "ok %d %d", b->width, b->height);
		}
		wl_list_remove(&job->link);
		free(job->path);
		free(job);
		if (cl && !cl->dead)
			client_resume(cl);
		if (cl && cl->dead)
			harness_client_destroy(cl);
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
	harness_shot_disarm(h);

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
	harness_shot_disarm(h);
	shot_complete_pending(h, NULL, 0, 0, "the output went away");
}

int
harness_shot_handle_timeout(void *data)
{
	struct harness *h = data;

	if (!h->frame_armed)
		return 0;
	weston_log("tt-harness: no repaint within %d ms for a screenshot\n",
		   SCREENSHOT_TIMEOUT_MS);
	harness_shot_disarm(h);
	shot_complete_pending(h, NULL, 0, 0, "timed out waiting for a repaint");
	return 0;
}

static void
shot_arm(struct harness *h)
{
	struct weston_output *output;

	if (h->frame_armed || wl_list_empty(&h->pending_shots))
		return;
	output = harness_first_output(h);
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

void
harness_cmd_screenshot(struct hclient *cl, const char *path)
{
	struct harness *h = cl->h;
	struct shot_job *job;

	if (!path || !*path) {
		harness_client_reply(cl, "error usage: screenshot PATH");
		return;
	}
	if (!harness_first_output(h)) {
		harness_client_reply(cl, "error no output");
		return;
	}
	job = calloc(1, sizeof *job);
	if (!job || !(job->path = strdup(path))) {
		free(job);
		harness_client_reply(cl, "error out of memory");
		return;
	}
	job->client = cl;
	wl_list_insert(h->pending_shots.prev, &job->link);
	cl->busy = true; /* later commands of this client wait for the reply */
	harness_client_update_mask(cl);
	shot_arm(h);
}
