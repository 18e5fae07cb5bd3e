/*
 * util.c -- the timer of the multifile example: timer_start flushes the
 * caches (reads and writes a FLUSH_BYTES buffer, allocated once) and reads
 * the clock; timer_stop returns the seconds since.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "multifile.h"

#define FLUSH_BYTES (1 << 20)

static double start_s;
static char *flush_buffer;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void flush_caches(int bytes)
{
    if (!flush_buffer)
        flush_buffer = calloc((size_t)bytes, 1);
    if (!flush_buffer)
        return;
    for (int i = 0; i < bytes; i += 64)
        flush_buffer[i] += 1;
}

void timer_start(void)
{
    flush_caches(FLUSH_BYTES);
    start_s = now();
}

double timer_stop(void)
{
    return now() - start_s;
}
