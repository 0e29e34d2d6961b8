/* Control-socket clients: reading lines, replying, and dispatching each command. */

#define _GNU_SOURCE

#include "harness.h"

/* ------------------------------------------------------------------------ */
/* client I/O                                                               */

/* Reads only while no reply is pending (commands are answered in order);
 * asks for writability while replies wait to be sent. */
void
harness_client_update_mask(struct hclient *cl)
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

void
harness_client_flush(struct hclient *cl)
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
	harness_client_update_mask(cl);
}

void __attribute__((format(printf, 2, 3)))
harness_client_reply(struct hclient *cl, const char *fmt, ...)
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
	harness_sb_append(&cl->out, line, (size_t)n);
	harness_sb_append(&cl->out, "\n", 1);
	free(line);
	if (cl->out.failed)
		cl->dead = true;
	harness_client_flush(cl);
}

void
harness_client_destroy(struct hclient *cl)
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
	harness_sb_free(&cl->out);
	free(cl);
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
		harness_cmd_screenshot(cl, line + 11);
		return;
	}
	if (strncmp(line, "close ", 6) == 0) {
		harness_cmd_close(cl, line + 6);
		return;
	}
	if (strncmp(line, "resize ", 7) == 0) {
		harness_cmd_resize(cl, line + 7);
		return;
	}
	if (strncmp(line, "touch batch ", 12) == 0) {
		harness_cmd_touch_batch(cl, line + 12);
		return;
	}
	if (strncmp(line, "touch raw ", 10) == 0) {
		harness_cmd_touch_raw(cl, line + 10);
		return;
	}

	for (p = strtok_r(line, " \t", &rest); p; p = strtok_r(NULL, " \t", &rest)) {
		if (argc == (int)(sizeof argv / sizeof argv[0])) {
			harness_client_reply(cl, "error too many arguments");
			return;
		}
		argv[argc++] = p;
	}
	if (argc == 0) {
		harness_client_reply(cl, "error empty command");
		return;
	}

	if (strcmp(argv[0], "ping") == 0) {
		harness_client_reply(cl, argc == 1 ? "ok" : "error usage: ping");
	} else if (strcmp(argv[0], "output") == 0) {
		struct weston_output *o = harness_first_output(h);

		if (argc != 1)
			harness_client_reply(cl, "error usage: output");
		else if (!o)
			harness_client_reply(cl, "error no output");
		else
			harness_client_reply(cl, "ok %d %d %d %d", o->x, o->y,
				     o->width, o->height);
	} else if (strcmp(argv[0], "touch") == 0) {
		harness_cmd_touch(cl, argv, argc);
	} else if (strcmp(argv[0], "pointer") == 0) {
		harness_cmd_pointer(cl, argv, argc);
	} else if (strcmp(argv[0], "key") == 0) {
		harness_cmd_key(cl, argv, argc);
	} else if (strcmp(argv[0], "windows") == 0) {
		harness_cmd_windows(cl, argv, argc);
	} else if (strcmp(argv[0], "close") == 0 || strcmp(argv[0], "screenshot") == 0) {
		harness_client_reply(cl, "error usage: %s", strcmp(argv[0], "close") == 0 ?
			     "close APP_ID" : "screenshot PATH");
	} else if (strcmp(argv[0], "latency") == 0) {
		harness_cmd_latency(cl, argv, argc);
	} else if (strcmp(argv[0], "backlog") == 0) {
		harness_cmd_backlog(cl, argv, argc);
	} else if (strcmp(argv[0], "capture") == 0) {
		harness_cmd_capture(cl, argv, argc);
	} else if (strcmp(argv[0], "commits") == 0) {
		if (argc != 1)
			harness_client_reply(cl, "error usage: commits");
		else
			harness_client_reply(cl, "ok %llu", (unsigned long long)h->commits);
	} else if (strcmp(argv[0], "quit") == 0) {
		if (argc != 1) {
			harness_client_reply(cl, "error usage: quit");
			return;
		}
		harness_client_reply(cl, "ok");
		weston_log("tt-harness: quit requested\n");
		weston_compositor_exit(h->compositor);
	} else {
		harness_client_reply(cl, "error unknown command '%s' (ping, output, touch, pointer, key, windows, close, resize, screenshot, commits, latency, backlog, capture, quit)",
			     argv[0]);
	}
}

/* Handles complete lines in the input buffer while no reply is pending. */
void
harness_client_process_lines(struct hclient *cl)
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
			harness_client_reply(cl, "error NUL byte in command");
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
		harness_client_flush(cl);

	if (mask & WL_EVENT_READABLE) {
		for (;;) {
			ssize_t n;

			if (cl->busy)
				break; /* read on once the pending reply is sent */
			if (cl->in_len == sizeof cl->in) {
				/* Over-long line: answer once, drop until '\n'. */
				if (!cl->discarding)
					harness_client_reply(cl, "error line too long (max %d bytes)",
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
			harness_client_process_lines(cl);
		}
	}
	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR))
		eof = true;

	harness_client_process_lines(cl);

	/* A client that hung up is dropped at once; a screenshot it was
	 * waiting for is still written (see harness_client_destroy). */
	if (cl->dead || eof)
		harness_client_destroy(cl);
	else
		harness_client_update_mask(cl);
	return 0;
}

int
harness_handle_accept(int fd, uint32_t mask, void *data)
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
