#define _GNU_SOURCE
#include <malloc.h>
#include <sched.h>
#include "CShims.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <math.h>

int tt_memfd_create(const char *name) {
    return memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
}

int tt_memfd_resize_and_seal(int fd, int64_t size) {
    int r;
    do { r = ftruncate(fd, (off_t)size); } while (r < 0 && errno == EINTR);
    if (r < 0) return -1;
    return fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL);
}

int tt_signalfd_for_termination(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    if (sigprocmask(SIG_BLOCK, &set, NULL) < 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

int tt_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n != (ssize_t)sizeof info) return 0;
    return (int)info.ssi_signo;
}

int tt_timerfd_create(void) {
    return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
}

int tt_timerfd_arm(int fd, double deadline) {
    struct itimerspec spec = {0};
    if (deadline > 0) {
        double whole = floor(deadline);
        spec.it_value.tv_sec = (time_t)whole;
        spec.it_value.tv_nsec = (long)((deadline - whole) * 1e9);
        // A zero it_value disarms; make sure an armed deadline is never exactly zero.
        if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

uint64_t tt_timerfd_drain(int fd) {
    uint64_t count = 0;
    if (read(fd, &count, sizeof count) != (ssize_t)sizeof count) return 0;
    return count;
}

double tt_monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double tt_thread_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double tt_process_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int tt_release_free_memory(void) {
    return malloc_trim(0);
}

size_t tt_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

void tt_return_big_blocks(size_t bytes) {
    mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

int tt_pipe_for_reading(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) < 0) return -1;
    if (tt_set_nonblocking(fds[0]) == 0) return 0;
    close(fds[0]);
    close(fds[1]);
    return -1;
}

int tt_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

int tt_usable_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int count = CPU_COUNT(&set);
        if (count > 0) return count;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}

int tt_use_one_cpu(void) {
    int cpu = sched_getcpu();
    if (cpu < 0) cpu = 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}
