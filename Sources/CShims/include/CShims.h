#ifndef TOUCHTRACKER_CSHIMS_H
#define TOUCHTRACKER_CSHIMS_H
// Linux calls that Swift's Glibc module hides behind _GNU_SOURCE or does not import.
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
// gettext (bindtextdomain, dgettext): glibc has it, but Swift's Glibc module does not import it.
#include <libintl.h>
#include <locale.h>

/// A sealed-capable anonymous file (memfd_create with MFD_CLOEXEC | MFD_ALLOW_SEALING). -1 on error.
int tt_memfd_create(const char *name);
/// Grows the file and seals it against shrinking (F_SEAL_SHRINK), so the compositor's mapping stays valid.
int tt_memfd_resize_and_seal(int fd, int64_t size);
/// Blocks SIGINT, SIGTERM and SIGHUP and returns a non-blocking signalfd for them. -1 on error.
int tt_signalfd_for_termination(void);
/// Reads one signal from a signalfd; returns the signal number, or 0 when none is pending.
int tt_signalfd_read(int fd);
/// A monotonic, non-blocking timerfd. -1 on error.
int tt_timerfd_create(void);
/// Arms the timerfd at an absolute CLOCK_MONOTONIC time in seconds; 0 or less disarms it.
int tt_timerfd_arm(int fd, double deadline);
/// Drains the timerfd's expiry count (0 when it has not fired).
uint64_t tt_timerfd_drain(int fd);
/// CLOCK_MONOTONIC in seconds: the one monotonic clock the app's modules and tests read.
double tt_monotonic_now(void);
/// The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID): what a piece of work cost,
/// apart from waiting.
double tt_thread_cpu_now(void);
/// The process's CPU time in seconds, every thread's (CLOCK_PROCESS_CPUTIME_ID): work that a
/// thread hands to others counts too.
double tt_process_cpu_now(void);
/// Gives the heap's free pages back to the system (glibc malloc_trim(0)); 1 if any were.
int tt_release_free_memory(void);
/// Makes blocks of `bytes` or more separate mappings, returned to the system when freed
/// (glibc otherwise raises the threshold after the first big free and keeps later big blocks).
void tt_return_big_blocks(size_t bytes);
/// Bytes the heap has handed out and not taken back (glibc mallinfo2), for measurements.
size_t tt_heap_bytes_in_use(void);
/// A close-on-exec pipe whose read end (fds[0]) is non-blocking; the write end, handed to another
/// program, stays blocking as that program expects. 0, or -1 on error.
int tt_pipe_for_reading(int fds[2]);
/// Makes `fd` non-blocking (a clipboard pipe another client handed us); 0, or -1 on error.
int tt_set_nonblocking(int fd);

/// How many CPUs this process may run on (its affinity: `taskset`, a container's cpuset), at
/// least 1.
int tt_usable_cpus(void);
/// Keeps this process on the CPU it runs on now (the benchmark's callgrind worker, whose counts
/// must not depend on how many threads work is shared between); 0, or -1 on error.
int tt_use_one_cpu(void);

#endif
