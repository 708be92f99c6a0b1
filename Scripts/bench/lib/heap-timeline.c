// heap-timeline: glibc's own view of a process's heap over time, preloaded into it.
//
// Why: heaptrack counts what the program holds; peak RSS counts pages. Between them is what
// malloc keeps (freed chunks, per-thread caches), which only glibc knows. Every 20 ms this
// samples mallinfo2() (heap size, bytes in use, mmapped) and the RSS, and appends a line
// "seconds rss-MiB heap-MiB in-use-MiB mmapped-MiB" to $HEAP_TIMELINE.<pid>.
//
//   cc -O2 -shared -fPIC -o /tmp/heap-timeline.so Scripts/bench/lib/heap-timeline.c -lpthread
//   HEAP_TIMELINE=/tmp/tl LD_PRELOAD=/tmp/heap-timeline.so rss-create ...
//
// "In use" includes chunks parked in the threads' caches (tcache): run with
// GLIBC_TUNABLES=glibc.malloc.tcache_count=0 to see what the program itself holds.
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double started;
static FILE *timeline;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double rss_mib(void) {
    long size = 0, resident = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    if (!statm) return 0;
    if (fscanf(statm, "%ld %ld", &size, &resident) != 2) resident = 0;
    fclose(statm);
    return resident * (double)sysconf(_SC_PAGESIZE) / 1048576.0;
}

static void sample(void) {
    struct mallinfo2 info = mallinfo2();
    fprintf(timeline, "%.2f %.2f %.2f %.2f %.2f\n", now() - started, rss_mib(),
            info.arena / 1048576.0, info.uordblks / 1048576.0, info.hblkhd / 1048576.0);
    fflush(timeline);
}

static void *sampling(void *unused) {
    (void)unused;
    for (;;) {
        sample();
        usleep(20000);
    }
    return NULL;
}

__attribute__((constructor)) static void start(void) {
    const char *prefix = getenv("HEAP_TIMELINE");
    if (!prefix) return;
    char path[4096];
    snprintf(path, sizeof path, "%s.%d", prefix, (int)getpid());
    if (!(timeline = fopen(path, "w"))) return;
    started = now();
    pthread_t thread;
    if (pthread_create(&thread, NULL, sampling, NULL) == 0) pthread_detach(thread);
}

__attribute__((destructor)) static void stop(void) {
    if (timeline) sample();
}
